import { z } from 'zod';
import { startConversationRequestSchema } from '../../api/request-schemas.js';

/** An AG-UI message as a run input carries it: only what this face reads is checked, the rest passes. */
const agUiMessageSchema = z.looseObject({
  id: z.string().min(1),
  role: z.string(),
  content: z.unknown().optional(),
  /** A `tool` message: the call it answers, and the client's error when running it failed. */
  toolCallId: z.string().optional(),
  error: z.string().optional(),
});

/** A frontend tool (AG-UI `Tool`): the client runs it; the model is offered it for the run. */
export const agUiToolSchema = z.looseObject({
  name: z.string().min(1),
  description: z.string().default(''),
  /** JSON Schema of the arguments (an object schema). */
  parameters: z.record(z.string(), z.unknown()).optional(),
});

/** An answer to an interrupt (AG-UI `ResumeEntry`). */
export const agUiResumeEntrySchema = z.looseObject({
  interruptId: z.string().min(1),
  status: z.enum(['resolved', 'cancelled']),
  /** For a confirmation: `{ approved: boolean, reason?: string }`; `true`/`false` alone are accepted too. */
  payload: z.unknown().optional(),
});
export type AgUiResumeEntry = z.infer<typeof agUiResumeEntrySchema>;

/**
 * AG-UI `RunAgentInput`. The thread is the conversation (`threadId` is its id). `forwardedProps.conversation`
 * is the create body (`StartConversationRequest`) of a thread that does not exist yet.
 */
export const agUiRunInputSchema = z.looseObject({
  threadId: z.string().min(1),
  runId: z.string().min(1),
  protocolVersion: z.string().optional(),
  messages: z.array(agUiMessageSchema),
  tools: z.array(agUiToolSchema).optional(),
  /** AG-UI `Context[]`; checked when the input is applied (`run-context.ts`), so a bad one gets a typed RUN_ERROR. */
  context: z.unknown().optional(),
  /** The client's shared state: checked when applied (`shared-state.ts`). */
  state: z.unknown().optional(),
  forwardedProps: z.looseObject({ conversation: startConversationRequestSchema.optional() }).nullish(),
  resume: z.array(agUiResumeEntrySchema).optional(),
});
export type AgUiRunInput = z.infer<typeof agUiRunInputSchema>;

/** The text of an AG-UI user message: a string, or the text parts of a content array. */
export function userMessageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'text'
        ? String((part as { text?: unknown }).text ?? '')
        : '',
    )
    .join('');
}

/** What a resume entry decides for a confirmation interrupt. */
export function confirmationDecision(entry: AgUiResumeEntry): { approved: boolean; reason?: string } {
  if (entry.status === 'cancelled') return { approved: false, reason: 'The user cancelled the confirmation' };
  const payload = entry.payload;
  if (typeof payload === 'boolean') return { approved: payload };
  if (typeof payload === 'object' && payload !== null) {
    const { approved, reason } = payload as { approved?: unknown; reason?: unknown };
    return { approved: approved === true, ...(typeof reason === 'string' ? { reason } : {}) };
  }
  return { approved: false, reason: 'The confirmation was answered without a decision' };
}
