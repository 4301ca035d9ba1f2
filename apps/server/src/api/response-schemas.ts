import { executionStatusSchema } from '@x/agent';
import { z } from 'zod';

/**
 * Response schemas: the OpenAPI document's response types and, through fastify-type-provider-zod's serializer
 * compiler, the check every response passes before it is sent. Objects that carry the reference's open-ended
 * JSON (events, agents, stats) are loose: their declared fields are checked and every other field is kept.
 */

/** One FastAPI-style validation issue (422). */
export const validationIssueSchema = z.object({
  type: z.string(),
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
});

/**
 * Every error response (§11.1): `{detail}` with a message, or the validation issues on a 422; a 500 adds
 * `exception` and the `error_id` that the server log names; an LLM failure adds its `code`.
 */
export const errorSchema = z
  .looseObject({
    detail: z.union([z.string(), z.array(validationIssueSchema)]),
    exception: z.string().optional(),
    error_id: z.string().optional(),
    code: z.string().optional(),
  })
  .describe('Error');

export const successSchema = z.object({ success: z.boolean() }).describe('Success');

/** One event as the reference serializes it (`kind` names its class); the other fields depend on the kind. */
export const eventJsonSchema = z
  .looseObject({
    id: z.string(),
    timestamp: z.string(),
    source: z.string(),
    kind: z.string(),
  })
  .describe('Event');

export const eventPageSchema = z
  .object({ items: z.array(eventJsonSchema), next_page_id: z.string().nullable() })
  .describe('A page of events');

export const countSchema = z.number().int().min(0).describe('Count');

const json = z.record(z.string(), z.unknown());

/** ConversationInfo (§11.2): the ConversationState JSON plus server metadata. */
export const conversationInfoSchema = z
  .looseObject({
    id: z.string(),
    agent: json,
    workspace: z.looseObject({ working_dir: z.string(), kind: z.string() }),
    persistence_dir: z.string(),
    max_iterations: z.number().int(),
    stuck_detection: z.boolean(),
    execution_status: executionStatusSchema,
    confirmation_policy: z.looseObject({ kind: z.string() }),
    stats: json,
    secret_registry: json,
    tags: z.record(z.string(), z.string()),
    title: z.string().nullable(),
    metrics: json.nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .describe('ConversationInfo');

/** What the routes return for a conversation (checked by the serializer against the schema). */
export type ConversationInfoJson = z.output<typeof conversationInfoSchema>;
export type EventJson = z.output<typeof eventJsonSchema>;

export const conversationPageSchema = z
  .object({ items: z.array(conversationInfoSchema), next_page_id: z.string().nullable() })
  .describe('A page of conversations');

export const conversationBatchSchema = z
  .array(conversationInfoSchema.nullable())
  .describe('The conversations in the order asked, null for unknown ones');

export const textResponseSchema = z.object({ response: z.string() }).describe('A text answer');

export const titleSchema = z.object({ title: z.string() }).describe('The generated title');

export const statusSchema = z.object({ status: z.string() }).describe('Status');

export const serverInfoSchema = z
  .object({
    title: z.string(),
    version: z.string(),
    uptime: z.number().describe('Seconds since the server started'),
    docs: z.string().describe('Path of the interactive API documentation'),
    openapi: z.string().describe('Path of the OpenAPI document'),
  })
  .describe('Server information');

/** What each error status means on this API; a route lists the ones it can answer. */
const errorMeaning = {
  400: 'Bad request: malformed path parameter or body, unknown conversation where the reference says 400',
  401: 'Missing or wrong X-Session-API-Key',
  403: 'The caller may not do this (e.g. decide on pending actions: not in approvalDeciders)',
  404: 'Conversation or event not found',
  409: 'Conflict: the conversation is running, or was deleted meanwhile',
  413: 'Request body too large',
  422: 'Validation error: the issues, FastAPI style',
  429: 'The LLM provider is rate limiting',
  500: 'Unexpected error: logged with the same error_id',
  502: 'The LLM provider failed or answered badly',
  503: 'The server is shutting down',
  504: 'The LLM provider timed out',
} as const;

export type ErrorStatus = keyof typeof errorMeaning;

/** Error responses: the given statuses, each with its meaning, plus a catch-all for any other 4xx/5xx. */
export function errorResponses(statuses: readonly ErrorStatus[]): Record<string, z.ZodType> {
  const out: Record<string, z.ZodType> = {};
  for (const status of statuses) out[status] = errorSchema.describe(errorMeaning[status]);
  out['4xx'] = errorSchema.describe('Any other client error');
  out['5xx'] = errorSchema.describe('Any other server error');
  return out;
}

/** Errors any `/api` route can answer before its handler runs. */
export const API_ERRORS: readonly ErrorStatus[] = [401, 413, 422, 500, 503];
/** Errors of a route that names a conversation in its path. */
export const CONVERSATION_ERRORS: readonly ErrorStatus[] = [...API_ERRORS, 400, 404, 409];
/** Errors of a route that calls the LLM. */
export const LLM_ERRORS: readonly ErrorStatus[] = [...CONVERSATION_ERRORS, 429, 502, 504];
