import { approvalRulesSchema, executionStatusSchema, sandboxPolicySchema } from '@x/agent';
import { contentPartSchema, messageRoleSchema } from '@x/events';
import { z } from 'zod';
import { imageUrlIssues } from '../internal/image-url.js';
import { SERVER_TOOL_SPELLINGS } from './tool-names.js';
import { REFERENCE_AGENT_FIELDS, REFERENCE_START_FIELDS, refuseUnknownFields } from './unknown-fields.js';

/** A conversation id in a path: hyphenated UUID or the 32-hex directory form. Anything else never reaches storage. */
export const conversationIdSchema = z
  .string()
  .regex(/^(?:[0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/, {
    message: 'expected a UUID or 32 hex digits',
  })
  .describe('Conversation id: hyphenated UUID or 32 hex digits');

/**
 * A file system path in a request (a workspace file, a working directory, a cwd): at most 4096 characters and no
 * NUL byte (which no path can hold, and which Node refuses with an error that is not the client's to see).
 */
export const filePathSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine((path) => !path.includes('\0'), { message: 'a path must not contain a NUL byte' });

export const conversationParamsSchema = z.object({ conversation_id: conversationIdSchema });
export const eventParamsSchema = z.object({
  conversation_id: conversationIdSchema,
  event_id: z.string().min(1).max(200),
});

/** Whether a request's endpoint can be requested at all: an absolute http(s) URL (refused at creation, not at the first step). */
function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

export const llmRequestSchema = z.looseObject({
  /** Model name; `offline` selects the offline model. Absent (with no endpoint or key): the server's default (X_MODEL, else the first provider key in its environment), or 422 when it has none. */
  model: z.string().min(1).nullish(),
  /** The provider's endpoint (OpenAI-compatible ones include `/v1`): an http or https URL. */
  base_url: z
    .string()
    .min(1)
    .refine(isHttpUrl, { message: 'expected an http:// or https:// URL (the provider endpoint)' })
    .nullish(),
  /** Plain text; stored encrypted with the server's secret key, or redacted without one. */
  api_key: z.string().nullish(),
  usage_id: z.string().min(1).nullish(),
  // The reference LLM's provider options (same names); see build-agent.ts for how each is used.
  /** `openai`, `openai-responses`, `anthropic`, `gemini` (or `google`); default: from the model name. */
  custom_llm_provider: z.string().min(1).nullish(),
  /** The reference's `low` … `xhigh` and `none`, and OpenAI's `minimal`: sent as the Responses API's `reasoning.effort`. */
  reasoning_effort: z.enum(['minimal', 'low', 'medium', 'high', 'xhigh', 'none']).nullish(),
  reasoning_summary: z.enum(['auto', 'concise', 'detailed']).nullish(),
  /** Anthropic extended thinking / Gemini thinking budget in tokens. */
  extended_thinking_budget: z.number().int().min(0).nullish(),
  /** Anthropic prompt caching (default on). */
  caching_prompt: z.boolean().nullish(),
  enable_encrypted_reasoning: z.boolean().nullish(),
  temperature: z.number().nullish(),
  max_output_tokens: z.number().int().positive().nullish(),
});

export const toolNameSchema = z.enum(SERVER_TOOL_SPELLINGS);

export const offlineTurnSchema = z.object({
  content: z.string().optional(),
  toolCalls: z.array(z.object({ name: z.string().min(1), arguments: z.record(z.string(), z.unknown()) })).optional(),
  reasoning: z.string().optional(),
});

/** The agent of a create request as stored in meta.json (read back as it was accepted, unknown fields and all). */
export const storedAgentRequestSchema = z.looseObject({
  kind: z.literal('Agent').nullish(),
  llm: llmRequestSchema,
  tools: z.array(z.looseObject({ name: toolNameSchema })).default([]),
  /** Reference condenser JSON (NoOpCondenser, PipelineCondenser, LLMSummarizingCondenser). */
  condenser: z.record(z.string(), z.unknown()).nullish(),
  system_prompt: z.string().nullish(),
  /** Reference `mcp_config`: MCP servers (name → {command, args, env} or {url, headers}); validated by buildAgent. */
  mcp_config: z.record(z.string(), z.unknown()).nullish(),
  /** Reference `agent_context`: `skills`, `system_message_suffix`, `user_message_suffix`, `load_project_skills`. */
  agent_context: z.looseObject({}).nullish(),
  /** Extension: a script for the offline model (tests and demos), used when no API key is available. */
  x_offline_script: z.array(offlineTurnSchema).nullish(),
});

/** The agent of a create request: unknown fields are refused (422 naming them), the reference's accepted. */
export const agentRequestSchema = storedAgentRequestSchema.superRefine(
  refuseUnknownFields('agent', [...Object.keys(storedAgentRequestSchema.shape), ...REFERENCE_AGENT_FIELDS]),
);
export type AgentRequest = z.infer<typeof agentRequestSchema>;

export const confirmationPolicyRequestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('NeverConfirm') }),
  z.object({ kind: z.literal('AlwaysConfirm') }),
  z.object({
    kind: z.literal('ConfirmRisky'),
    threshold: z.enum(['LOW', 'MEDIUM', 'HIGH']).default('HIGH'),
    confirm_unknown: z.boolean().default(true),
  }),
]);

/** Why a secret the server would have to fetch is refused: the agent's server never requests a client's URL. */
const LOOKUP_REFUSED =
  "secrets fetched from a URL (the reference's LookupSecret) are not supported: the server does not request a " +
  "client's URLs (a request forgery risk); send the value as a StaticSecret";

export const secretInputSchema = z.union(
  [
    z.string(),
    z
      .looseObject({
        value: z.string().nullish(),
        description: z.string().nullish(),
        kind: z.literal('StaticSecret', { error: LOOKUP_REFUSED }).nullish(),
      })
      // Without `kind`, a LookupSecret's `url` would otherwise pass as a secret with no value.
      .refine((secret) => !('url' in secret) || typeof secret.value === 'string', {
        error: LOOKUP_REFUSED,
        path: ['url'],
      }),
  ],
  {
    // A union names no branch's problem by default: an object is told what is wrong with it as a secret object.
    error: (issue) =>
      (issue as { errors?: { message?: string }[][] }).errors?.[1]?.[0]?.message ??
      'expected a string or a StaticSecret object',
  },
);

/** A message's content parts as a client sends them: images must be URLs a model can be sent (`imageUrlProblem`). */
const requestContentSchema = z.array(contentPartSchema).superRefine((parts, context) => {
  for (const { path, problem } of imageUrlIssues(parts)) context.addIssue({ code: 'custom', message: problem, path });
});

export const initialMessageSchema = z.object({
  role: z.literal('user').default('user'),
  /** The reference's default: no content (an empty user message, still sent and run). */
  content: z.union([z.string(), requestContentSchema]).default([]),
  /** Ignored: the reference always runs after an initial message. */
  run: z.boolean().nullish(),
});

/**
 * x only: a money budget in dollars. `max_usd` ≥ 0 (null removes the budget where a route allows it);
 * `allow_unknown_cost` lets a model of unknown cost run under it (default false: such a call stops the run).
 */
export const budgetBodySchema = z
  .object({
    max_usd: z.number().finite().nonnegative(),
    allow_unknown_cost: z.boolean().default(false),
  })
  .strict();

/** `POST /api/conversations/{id}/budget`: the budget to set (`max_usd: null` removes it), and whether to run. */
export const setBudgetBodySchema = z
  .object({
    max_usd: z.number().finite().nonnegative().nullable(),
    allow_unknown_cost: z.boolean().default(false),
    /** Start a background run once it is set (a run stopped on its budget continues). */
    run: z.boolean().default(false),
  })
  .strict();

const startConversationRequestShape = z.looseObject({
  agent: agentRequestSchema,
  /**
   * `working_dir` must lie inside the server's workspace root (absolute, or relative to the conversation's own
   * default workspace `<root>/<id hex>`); it is created if missing.
   */
  workspace: z.looseObject({ working_dir: filePathSchema }).nullish(),
  conversation_id: conversationIdSchema.nullish(),
  confirmation_policy: confirmationPolicyRequestSchema.nullish(),
  initial_message: initialMessageSchema.nullish(),
  max_iterations: z.number().int().min(1).default(500),
  stuck_detection: z.boolean().default(true),
  secrets: z.record(z.string().min(1), secretInputSchema).nullish(),
  tags: z.record(z.string().regex(/^[a-z0-9]+$/), z.string().max(256)).nullish(),
  title: z.string().trim().min(1).max(200).nullish(),
  /** The reference's HookConfig (PascalCase or snake_case event types); validated by @x/agent. */
  hook_config: z.record(z.string(), z.unknown()).nullish(),
  /**
   * x only: the sandbox policy of the conversation's processes (terminal, hooks, MCP stdio servers). Default:
   * sandboxed, no network, the workspace writable. `mode: 'unsandboxed'` is accepted only by a server started
   * with `--unsandboxed` (which runs every conversation so).
   */
  sandbox: sandboxPolicySchema.nullish(),
  /**
   * x only: a money budget for the conversation (sub-agents included), checked before every model call against
   * the spend in its log; reaching it stops the run (status `error`, ConversationErrorEvent `MaxBudgetReached`).
   */
  budget: budgetBodySchema.nullish(),
  /**
   * x only: capture the workspace after every step beside the conversation (`workspaceCheckpoints`), so that
   * navigating and forking restore the files of that point.
   */
  workspace_checkpoints: z.boolean().default(false),
  /**
   * x only: approval rules deciding on tool calls per tool and argument pattern (`approved`, `denied` with a
   * `reason`, `user-approval`, `not-applicable`), recorded with the rule as principal.
   */
  approval_rules: approvalRulesSchema.nullish(),
  /**
   * x only: the agents control can pass to (`transfer_to_agent`), by name, each in the `agent` field's shape (its
   * own model, prompt and tools). The `agent` field is the one in control first.
   */
  agents: z.record(z.string().min(1).max(64), agentRequestSchema).nullish(),
});

/** Unknown fields are refused (422 naming them), the reference's own fields accepted (see unknown-fields.ts). */
export const startConversationRequestSchema = startConversationRequestShape.superRefine(
  refuseUnknownFields('', [...Object.keys(startConversationRequestShape.shape), ...REFERENCE_START_FIELDS]),
);
export type StartConversationRequest = z.infer<typeof startConversationRequestSchema>;

export const sendMessageRequestSchema = z.object({
  role: messageRoleSchema.default('user'),
  /** The reference's default: an empty message. */
  content: requestContentSchema.default([]),
  run: z.boolean().default(false),
  /** Accepted and ignored (the Python client sends it). */
  sender: z.string().nullish(),
});

export const confirmationPolicyBodySchema = z.object({ policy: confirmationPolicyRequestSchema });

export const respondToConfirmationSchema = z.object({
  accept: z.boolean(),
  reason: z.string().default('User rejected the action.'),
});

export const askAgentSchema = z.object({ question: z.string().min(1) });

/**
 * The reference takes 1 to 200 (its Python client passes `max_length` through unchecked); a title is cut to fit.
 * `llm`: the model that writes the title (the reference's LLM fields), else the conversation's agent's.
 */
export const generateTitleSchema = z
  .object({ max_length: z.number().int().min(1).max(200).default(50), llm: llmRequestSchema.nullish() })
  .nullish();

const updateConversationShape = z.looseObject({
  title: z.string().trim().min(1).max(200).nullish(),
  tags: z.record(z.string().regex(/^[a-z0-9]+$/), z.string().max(256)).nullish(),
});

/** Unknown fields are refused (422 naming them): a misspelt `titel` would otherwise be a success that changed nothing. */
export const updateConversationSchema = updateConversationShape.superRefine(
  refuseUnknownFields('', Object.keys(updateConversationShape.shape)),
);

export const conversationSortOrderSchema = z.enum(['CREATED_AT', 'UPDATED_AT', 'CREATED_AT_DESC', 'UPDATED_AT_DESC']);
/** The execution status filter takes exactly the agent's statuses. */
export const executionStatusQuerySchema = executionStatusSchema;

/** x's text filter of conversation search and count (not in the reference). */
const conversationTextQuerySchema = z
  .string()
  .max(200)
  .optional()
  .describe(
    'x extension: only conversations whose title or id (hyphenated or 32 hex) contains this text, ignoring case',
  );

export const conversationSearchQuerySchema = z.object({
  page_id: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(100),
  status: executionStatusQuerySchema.optional(),
  sort_order: conversationSortOrderSchema.default('CREATED_AT_DESC'),
  include_skills: z.string().optional(),
  q: conversationTextQuerySchema,
});

export const conversationCountQuerySchema = z.object({
  status: executionStatusQuerySchema.optional(),
  q: conversationTextQuerySchema,
});

export const batchGetQuerySchema = z.object({
  ids: z.union([z.string(), z.array(z.string()).max(99)]).optional(),
});

export const eventFilterQuerySchema = z.object({
  kind: z.string().max(200).optional(),
  source: z.string().max(50).optional(),
  body: z.string().max(10_000).optional(),
  timestamp__gte: z.string().max(64).optional(),
  timestamp__lt: z.string().max(64).optional(),
});

export const eventSearchQuerySchema = eventFilterQuerySchema.extend({
  page_id: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(0).max(100).default(100),
  sort_order: z.enum(['TIMESTAMP', 'TIMESTAMP_DESC']).default('TIMESTAMP'),
});
export type EventSearchQuery = z.infer<typeof eventSearchQuerySchema>;
export type EventFilterQuery = z.infer<typeof eventFilterQuerySchema>;
