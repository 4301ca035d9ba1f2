import { getEventKindOptions, getObservationKindOptions } from '../registry/index.js';
import type { Observation } from '../schemas/common.js';
import type { ContentPart, Message, TextContent } from '../schemas/content.js';
import type { AnyEvent } from '../schemas/events.js';
import type { ActionEvent, ObservationEvent } from '../schemas/llm-convertible-events.js';
import { OBSERVATION_ERROR_HEADER } from './observation-error-header.js';

export { OBSERVATION_ERROR_HEADER };

const errorHeaderPart: TextContent = Object.freeze({
  cache_prompt: false,
  type: 'text',
  text: OBSERVATION_ERROR_HEADER,
});

/**
 * The LLM message of one event (reference §3): system prompt, message, single action, observation,
 * rejection, agent error or condensation summary. Registered custom event kinds use their
 * `toLlmMessage` hook. Everything else (control events, opaque events) gives `undefined`.
 * The result may share frozen parts with the event and with other messages (content arrays and parts, a tool
 * message's empty `thinking_blocks`); the event itself is never changed.
 */
export function eventToLlmMessage(event: AnyEvent): Message | undefined {
  switch (event.kind) {
    case 'SystemPromptEvent':
      return {
        role: 'system',
        content: event.dynamic_context ? [event.system_prompt, event.dynamic_context] : [event.system_prompt],
        thinking_blocks: [],
      };
    case 'MessageEvent': {
      const message = event.llm_message;
      if (event.extended_content.length === 0) return message;
      return { ...message, content: [...message.content, ...event.extended_content] };
    }
    case 'ActionEvent':
      return actionMessage(event, [event.tool_call]);
    case 'ObservationEvent':
      return toolMessage(event, observationContent(event));
    case 'UserRejectObservation':
      return toolMessage(event, [textPart(`Action rejected: ${event.rejection_reason}`)]);
    case 'AgentErrorEvent':
      return toolMessage(event, [textPart(event.error)]);
    case 'CondensationSummaryEvent':
      return { role: 'user', content: [textPart(event.summary)], thinking_blocks: [] };
    case 'OpaqueEvent':
      return undefined;
    default:
      return customEventMessage(event);
  }
}

/** The assistant message of an action (or of a parallel batch led by `first`), reference §3.5. */
export function actionMessage(first: ActionEvent, toolCalls: Message['tool_calls']): Message {
  const message: Message = {
    role: 'assistant',
    content: first.thought,
    tool_calls: toolCalls,
    thinking_blocks: first.thinking_blocks,
  };
  if (first.reasoning_content !== undefined) message.reasoning_content = first.reasoning_content;
  if (first.responses_reasoning_item !== undefined) message.responses_reasoning_item = first.responses_reasoning_item;
  return message;
}

/**
 * True when `eventToLlmMessage` gives a message for the event: the built-in convertible kinds, plus
 * registered custom kinds with a `toLlmMessage` hook.
 */
export function hasLlmMessage(event: AnyEvent): boolean {
  switch (event.kind) {
    case 'SystemPromptEvent':
    case 'MessageEvent':
    case 'ActionEvent':
    case 'ObservationEvent':
    case 'UserRejectObservation':
    case 'AgentErrorEvent':
    case 'CondensationSummaryEvent':
      return true;
    default:
      return isBuiltinKind(event.kind) ? false : getEventKindOptions(event.kind)?.toLlmMessage !== undefined;
  }
}

function observationContent(event: ObservationEvent): ContentPart[] {
  const content = llmContentOf(event.observation);
  return event.extended_content.length === 0 ? content : [...content, ...event.extended_content];
}

/** Default `to_llm_content` (error header + content) unless the observation kind registered its own. */
function llmContentOf(observation: Observation): ContentPart[] {
  const hook = getObservationKindOptions(observation.kind)?.toLlmContent;
  if (hook !== undefined) return sharedIfSame(hook(observation), observation.content);
  return observation.is_error ? [errorHeaderPart, ...observation.content] : observation.content;
}

/**
 * A copy of a hook's parts (the hook may keep its array), or the observation's own (frozen) content array when
 * the hook gave back exactly its parts, as the terminal's does for an observation without metadata: the message
 * then shares it, as without a hook, instead of holding a copy per observation (33k of a resumed 100k-event view).
 */
function sharedIfSame(parts: readonly ContentPart[], content: ContentPart[]): ContentPart[] {
  if (parts.length !== content.length || !Object.isFrozen(content)) return [...parts];
  for (let index = 0; index < parts.length; index++) if (parts[index] !== content[index]) return [...parts];
  return content;
}

/**
 * The `thinking_blocks` of every tool message: one frozen empty array (a tool result has none), as an action's
 * message shares its event's frozen one, instead of an empty array per tool message (33k of a resumed view).
 */
const noThinkingBlocks = Object.freeze([]) as unknown as Message['thinking_blocks'];

function toolMessage(event: { tool_name: string; tool_call_id: string }, content: ContentPart[]): Message {
  return {
    role: 'tool',
    content,
    tool_call_id: event.tool_call_id,
    name: event.tool_name,
    thinking_blocks: noThinkingBlocks,
  };
}

function textPart(text: string): TextContent {
  return { cache_prompt: false, type: 'text', text };
}

const builtinKinds = new Set([
  'Condensation',
  'CondensationRequest',
  'ConversationStateUpdateEvent',
  'ConversationErrorEvent',
  'PauseEvent',
  'InterruptEvent',
  'TokenEvent',
  'HookExecutionEvent',
  'LLMCompletionLogEvent',
  'StreamingDeltaEvent',
  'ACPToolCallEvent',
  'ServerErrorEvent',
  'OpaqueEvent',
]);

function isBuiltinKind(kind: string): boolean {
  return builtinKinds.has(kind);
}

function customEventMessage(event: AnyEvent): Message | undefined {
  if (isBuiltinKind(event.kind)) return undefined;
  return getEventKindOptions(event.kind)?.toLlmMessage?.(event);
}
