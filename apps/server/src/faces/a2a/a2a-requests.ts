import { z } from 'zod';
import { startConversationRequestSchema } from '../../api/request-schemas.js';
import { clientText } from '../../internal/client-text.js';

/** A JSON-RPC 2.0 request envelope; `params` is checked per method. */
export const rpcRequestSchema = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number(), z.null()]).optional(),
  method: z.string().min(1),
  params: z.unknown().optional(),
});
export type RpcRequest = z.infer<typeof rpcRequestSchema>;

/** A `Part` (protobuf JSON): its content is whichever of `text`, `data`, `raw` (base64) or `url` it has. */
const partSchema = z.looseObject({
  text: z.string().optional(),
  data: z.unknown().optional(),
  url: z.string().optional(),
  raw: z.string().optional(),
  filename: z.string().optional(),
  mediaType: z.string().optional(),
});
export type A2aIncomingPart = z.infer<typeof partSchema>;

/** An answer to a confirmation the task is waiting for, in a message's `metadata.confirmation`. */
export const confirmationSchema = z.object({ approved: z.boolean(), reason: z.string().optional() });

/** An A2A `Message` as this face reads it: its text parts, its task, and the metadata this face understands. */
export const a2aMessageSchema = z.looseObject({
  messageId: z.string().min(1, 'message.messageId is required'),
  /** The sender's role: the client's is the user's. An agent's message would be recorded as a user turn, so it is refused. */
  role: z
    .enum(['ROLE_USER', 'ROLE_UNSPECIFIED'], {
      error: (issue) =>
        `'${clientText(issue.input)}' is not a role a message sent to this agent may have: it is the user's (ROLE_USER)`,
    })
    .optional(),
  taskId: z.string().optional(),
  contextId: z.string().optional(),
  parts: z.array(partSchema).default([]),
  /** Other tasks this message builds on: their outcome is given to the agent with the message. */
  referenceTaskIds: z.array(z.string()).default([]),
  metadata: z
    .looseObject({
      /** The create body (`StartConversationRequest`) of the conversation a message without `taskId` starts. */
      conversation: startConversationRequestSchema.optional(),
      confirmation: confirmationSchema.optional(),
    })
    .nullish(),
});
export type A2aIncomingMessage = z.infer<typeof a2aMessageSchema>;

export const sendMessageParamsSchema = z.looseObject({
  message: a2aMessageSchema,
  configuration: z
    .looseObject({
      returnImmediately: z.boolean().optional(),
      historyLength: z.number().int().nonnegative().optional(),
      /** The media types the client takes in answers; empty or absent: any. */
      acceptedOutputModes: z.array(z.string()).optional(),
      /** Refused (-32003): the card declares no push notifications. */
      taskPushNotificationConfig: z.unknown().optional(),
    })
    .nullish(),
});
export type SendMessageParams = z.infer<typeof sendMessageParamsSchema>;

export const taskIdParamsSchema = z.looseObject({
  id: z.string().min(1, 'id (the task id) is required'),
  historyLength: z.number().int().nonnegative().optional(),
});

export const listTasksParamsSchema = z.looseObject({
  contextId: z.string().optional(),
  /** A `TaskState` name; `TASK_STATE_UNSPECIFIED` (the protobuf default) filters nothing out. */
  status: z
    .enum(
      [
        'TASK_STATE_UNSPECIFIED',
        'TASK_STATE_SUBMITTED',
        'TASK_STATE_WORKING',
        'TASK_STATE_COMPLETED',
        'TASK_STATE_FAILED',
        'TASK_STATE_CANCELED',
        'TASK_STATE_INPUT_REQUIRED',
        'TASK_STATE_REJECTED',
        'TASK_STATE_AUTH_REQUIRED',
      ],
      { error: (issue) => `'${clientText(issue.input)}' is not a TaskState name (TASK_STATE_COMPLETED, ...)` },
    )
    .optional(),
  pageSize: z.number().int().min(1).max(100).optional(),
  pageToken: z.string().optional(),
  historyLength: z.number().int().nonnegative().optional(),
  /** Only tasks whose status changed after this instant (ISO 8601). */
  statusTimestampAfter: z.iso.datetime({ offset: true }).optional(),
  includeArtifacts: z.boolean().optional(),
});
