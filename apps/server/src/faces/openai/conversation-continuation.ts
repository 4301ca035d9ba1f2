import { canonicalJson } from '@x/store';
import type { StartConversationRequest } from '../../api/request-schemas.js';
import type { ConversationMeta } from '../../conversations/conversation-meta.js';
import { clientText } from '../../internal/client-text.js';
import { invalidRequest, type OpenAiGatewayError } from './openai-error.js';

/**
 * The tag a conversation the gateway starts carries, naming the model (of `GET /v1/models`) whose agent it runs: a
 * follow-up by the conversation's header is checked against it, and a listing shows which model a conversation is.
 */
export const MODEL_TAG = 'openaimodel';

/**
 * A follow-up that asks another model than the one whose agent runs the conversation: the conversation keeps the agent
 * it started with, so that agent would answer under the other model's name. `conversation` says which conversation
 * (that of previous_response_id, or the one the header names).
 */
export function otherModelRefused(requested: string, conversation: string, started?: string): OpenAiGatewayError {
  const send = started === undefined ? '' : `; send model '${started}'`;
  return invalidRequest(
    `Unsupported value: 'model' '${clientText(requested)}' is not the model of ${conversation}${started === undefined ? " (its agent is not that model's agent)" : `, '${started}'`}: a conversation's agent is set when it starts${send} (or start a new conversation)`,
    'model',
    'unsupported_value',
  );
}

/**
 * A follow-up whose system text (`instructions`, system/developer messages) differs from the conversation's: the system
 * message is written when the conversation starts, so other text could not reach the agent. `param` is where the
 * request carries it (`instructions`, `messages`).
 */
export function otherSystemRefused(param: string, conversation: string): OpenAiGatewayError {
  return invalidRequest(
    `Unsupported value: '${param}' holds system text (instructions, system/developer messages) other than the text ${conversation} started with: the agent's system message is set when its conversation starts; send the same, or none`,
    param,
    'unsupported_value',
  );
}

/** The model's create body with the request's system text appended to its agent's system message suffix. */
export function withSystemText(create: StartConversationRequest, system: string): StartConversationRequest {
  if (system === '') return create;
  const context = (create.agent.agent_context ?? {}) as { system_message_suffix?: unknown };
  const existing = typeof context.system_message_suffix === 'string' ? context.system_message_suffix.trim() : '';
  const suffix = [existing, system.trim()].filter((text) => text !== '').join('\n\n');
  return { ...create, agent: { ...create.agent, agent_context: { ...context, system_message_suffix: suffix } } };
}

type AgentConfig = StartConversationRequest['agent'];

const suffixOf = (agent: AgentConfig): string => {
  const suffix = (agent.agent_context as { system_message_suffix?: unknown } | null | undefined)?.system_message_suffix;
  return typeof suffix === 'string' ? suffix : '';
};

/** The value with empty objects and null/undefined values left out, at every level: two equal configs read the same. */
function withoutEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmpty);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value)
    .map(([key, item]) => [key, withoutEmpty(item)] as const)
    .filter(([, item]) => item !== null && item !== undefined && !(typeof item === 'object' && isEmpty(item)));
  return Object.fromEntries(entries);
}
const isEmpty = (value: object): boolean => !Array.isArray(value) && Object.keys(value).length === 0;

/**
 * What makes an agent that agent, for a conversation the gateway did not start (no model tag): its configuration but
 * the secrets (stored encrypted, so never equal to the model's) and the system suffix (checked on its own).
 */
function agentIdentity(agent: AgentConfig): string {
  const context = { ...((agent.agent_context ?? {}) as Record<string, unknown>), system_message_suffix: undefined };
  // Keys sorted by canonicalJson, so that key order does not tell two equal configs apart.
  return canonicalJson(
    withoutEmpty({
      ...agent,
      llm: { ...agent.llm, api_key: undefined },
      mcp_config: undefined,
      agent_context: context,
    }),
  );
}

/**
 * Refuses a turn that would run an existing conversation as another model, or with system text it did not start with
 * (the rule `previous_response_id` follows, for a conversation named by its header): the model must be the one its tag
 * names (or, for a conversation the gateway did not start, one whose agent is the conversation's), and system text, when
 * sent, the text the conversation started with.
 */
export function assertContinues(
  meta: Pick<ConversationMeta, 'id' | 'tags' | 'agent'>,
  request: { model: string; create: StartConversationRequest; system: string; systemParam: string },
): void {
  const conversation = `conversation ${meta.id}`;
  const started = meta.tags[MODEL_TAG];
  if (started !== undefined && started !== request.model) {
    throw otherModelRefused(request.model, conversation, started);
  }
  const stored = meta.agent as AgentConfig;
  if (started === undefined && agentIdentity(stored) !== agentIdentity(request.create.agent)) {
    throw otherModelRefused(request.model, conversation);
  }
  if (request.system !== '' && suffixOf(withSystemText(request.create, request.system).agent) !== suffixOf(stored)) {
    throw otherSystemRefused(request.systemParam, conversation);
  }
}
