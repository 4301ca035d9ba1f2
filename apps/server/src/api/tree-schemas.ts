import { z } from 'zod';
import { conversationIdSchema, secretInputSchema } from './request-schemas.js';
import { CONVERSATION_ERRORS, errorResponses as documentedErrors } from './response-schemas.js';

/** Reference `ForkConversationRequest`; the whole body may be omitted. */
export const forkConversationSchema = z
  .object({
    id: conversationIdSchema.nullish(),
    title: z.string().trim().min(1).max(200).nullish(),
    tags: z.record(z.string().regex(/^[a-z0-9]+$/), z.string().max(256)).nullish(),
    reset_metrics: z.boolean().default(true),
    from_event_id: z.string().min(1).max(200).nullish(),
  })
  .default({ reset_metrics: true });
export type ForkConversationRequest = z.output<typeof forkConversationSchema>;

/** Reference `NavigateConversationRequest`: `null` selects the empty HEAD. */
export const navigateConversationSchema = z.object({ event_id: z.string().min(1).max(200).nullable().default(null) });

/** Reference `UpdateSecretsRequest`: a string, `{"value": ...}` or a StaticSecret per name. */
export const updateSecretsSchema = z.object({ secrets: z.record(z.string().min(1), secretInputSchema) });

/** Reference `SetSecurityAnalyzerRequest`. */
export const setSecurityAnalyzerSchema = z.object({
  security_analyzer: z.looseObject({ kind: z.string() }).nullable(),
});

export { conversationInfoSchema, errorSchema, successSchema } from './response-schemas.js';

/** The documented errors of a route that names a conversation (with the 4xx/5xx catch-alls). */
export const errorResponses = documentedErrors(CONVERSATION_ERRORS);
