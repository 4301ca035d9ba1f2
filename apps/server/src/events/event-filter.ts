import type { AnyEvent, ContentPart } from '@x/events';
import type { EventFilterQuery } from '../api/request-schemas.js';
import { InvalidRequestError } from '../conversations/errors/invalid-request-error.js';
import { naiveLocalTimestamp } from '../internal/query-datetime.js';

/** The reference matches `kind` against the Python class path (§11.3); we accept these and bare kinds. */
export const QUALIFIED_EVENT_KINDS: Readonly<Record<string, string>> = {
  MessageEvent: 'openhands.sdk.event.llm_convertible.message.MessageEvent',
  ActionEvent: 'openhands.sdk.event.llm_convertible.action.ActionEvent',
  ObservationEvent: 'openhands.sdk.event.llm_convertible.observation.ObservationEvent',
  UserRejectObservation: 'openhands.sdk.event.llm_convertible.observation.UserRejectObservation',
  AgentErrorEvent: 'openhands.sdk.event.llm_convertible.observation.AgentErrorEvent',
  SystemPromptEvent: 'openhands.sdk.event.llm_convertible.system.SystemPromptEvent',
  Condensation: 'openhands.sdk.event.condenser.Condensation',
  CondensationRequest: 'openhands.sdk.event.condenser.CondensationRequest',
  ConversationStateUpdateEvent: 'openhands.sdk.event.conversation_state.ConversationStateUpdateEvent',
  ConversationErrorEvent: 'openhands.sdk.event.conversation_error.ConversationErrorEvent',
  PauseEvent: 'openhands.sdk.event.user_action.PauseEvent',
  InterruptEvent: 'openhands.sdk.event.user_action.InterruptEvent',
  TokenEvent: 'openhands.sdk.event.token.TokenEvent',
  HookExecutionEvent: 'openhands.sdk.event.hook_execution.HookExecutionEvent',
  LLMCompletionLogEvent: 'openhands.sdk.event.llm_completion_log.LLMCompletionLogEvent',
  ACPToolCallEvent: 'openhands.sdk.event.acp_tool_call.ACPToolCallEvent',
};

const BARE_BY_QUALIFIED = new Map(Object.entries(QUALIFIED_EVENT_KINDS).map(([bare, qualified]) => [qualified, bare]));

/** The event `kind` a filter value names: a known class path, another dotted path's last segment, or a bare kind. */
export function kindOfFilter(value: string): string {
  const known = BARE_BY_QUALIFIED.get(value);
  if (known !== undefined) return known;
  const dot = value.lastIndexOf('.');
  return dot === -1 ? value : value.slice(dot + 1);
}

/**
 * §11.3: a timezone-aware bound is converted to the server's local time and made naive; a naive one is
 * taken as local. Both are then compared as strings with the events' naive local timestamps, so a bound that is
 * no datetime (which the reference's pydantic refuses) is a 422 naming the field, never a silent string compare.
 */
export function normalizeTimestampBound(value: string, field: string): string {
  const naive = naiveLocalTimestamp(value);
  if (naive === undefined) {
    throw new InvalidRequestError(`${field}: not an ISO 8601 datetime: ${JSON.stringify(value)}`, {
      statusCode: 422,
      loc: ['query', field],
    });
  }
  return naive;
}

function partsText(parts: readonly ContentPart[] | undefined): string[] {
  return (parts ?? []).map((part) => (part.type === 'text' ? part.text : `[Image: ${part.image_urls.length} URLs]`));
}

/** The reference's searchable text of a MessageEvent: content, extended content and reasoning, space-joined. */
function messageSearchText(event: AnyEvent): string | undefined {
  if (event.kind !== 'MessageEvent') return undefined;
  const texts = [
    ...partsText(event.llm_message.content),
    ...partsText(event.extended_content),
    ...(event.llm_message.reasoning_content ? [event.llm_message.reasoning_content] : []),
  ];
  return texts.join(' ').toLowerCase();
}

export type EventPredicate = (event: AnyEvent) => boolean;

/** The AND of the query's filters, or undefined when it has none (so callers can skip reading events). */
export function eventPredicate(query: EventFilterQuery): EventPredicate | undefined {
  const kind = query.kind === undefined || query.kind === '' ? undefined : kindOfFilter(query.kind);
  const source = query.source || undefined;
  const body = query.body ? query.body.toLowerCase() : undefined;
  const gte = query.timestamp__gte ? normalizeTimestampBound(query.timestamp__gte, 'timestamp__gte') : undefined;
  const lt = query.timestamp__lt ? normalizeTimestampBound(query.timestamp__lt, 'timestamp__lt') : undefined;
  if (kind === undefined && source === undefined && body === undefined && gte === undefined && lt === undefined) {
    return undefined;
  }
  return (event) => {
    if (kind !== undefined && event.kind !== kind) return false;
    if (source !== undefined && event.source !== source) return false;
    if (gte !== undefined && !(event.timestamp >= gte)) return false;
    if (lt !== undefined && !(event.timestamp < lt)) return false;
    if (body !== undefined && !(messageSearchText(event)?.includes(body) ?? false)) return false;
    return true;
  };
}
