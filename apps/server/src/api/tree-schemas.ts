import { z } from 'zod';
import { conversationIdSchema, secretInputSchema } from './request-schemas.js';

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

/** Reference `NavigateConversationRequest`: `null` selects the empty HEAD. */
export const navigateConversationSchema = z.object({ event_id: z.string().min(1).max(200).nullable().default(null) });

/** Reference `UpdateSecretsRequest`: a string, `{"value": ...}` or a StaticSecret per name. */
export const updateSecretsSchema = z.object({ secrets: z.record(z.string().min(1), secretInputSchema) });

/** Reference `SetSecurityAnalyzerRequest`. */
export const setSecurityAnalyzerSchema = z.object({
  security_analyzer: z.looseObject({ kind: z.string() }).nullable(),
});

/** `{"success": true}`. */
export const successSchema = z.object({ success: z.boolean() });
/** `{"detail": ...}`: a message, or the validation errors of a 422. */
export const errorSchema = z.looseObject({ detail: z.unknown() });
/** ConversationInfo (reference §11.2), documented by its id; every other field passes through. */
export const conversationInfoSchema = z.looseObject({ id: z.string(), leaf_event_id: z.string().nullable() });

export const errorResponses = {
  400: errorSchema,
  401: errorSchema,
  404: errorSchema,
  409: errorSchema,
  422: errorSchema,
};
