import { z } from 'zod';
import { startConversationRequestSchema } from '../../api/request-schemas.js';

/** A JSON-RPC 2.0 request envelope; `params` is checked per method. */
export const rpcRequestSchema = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number(), z.null()]).optional(),
  method: z.string().min(1),
  params: z.unknown().optional(),
});
export type RpcRequest = z.infer<typeof rpcRequestSchema>;

const partSchema = z.looseObject({
  text: z.string().optional(),
  data: z.unknown().optional(),
  url: z.string().optional(),
  raw: z.string().optional(),
});

/** An answer to a confirmation the task is waiting for, in a message's `metadata.confirmation`. */
export const confirmationSchema = z.object({ approved: z.boolean(), reason: z.string().optional() });

/** An A2A `Message` as this face reads it: its text parts, its task, and the metadata this face understands. */
export const a2aMessageSchema = z.looseObject({
  messageId: z.string().min(1, 'message.messageId is required'),
  role: z.enum(['ROLE_USER', 'ROLE_AGENT', 'ROLE_UNSPECIFIED']).optional(),
  taskId: z.string().optional(),
  contextId: z.string().optional(),
  parts: z.array(partSchema).default([]),
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
  status: z.string().optional(),
  pageSize: z.number().int().min(1).max(100).optional(),
  pageToken: z.string().optional(),
  historyLength: z.number().int().nonnegative().optional(),
  includeArtifacts: z.boolean().optional(),
});

/** The text a message brings: its text parts, joined by blank lines. */
export function messageText(message: A2aIncomingMessage): string {
  return message.parts
    .map((part) => part.text ?? '')
    .filter((text) => text !== '')
    .join('\n\n');
}
