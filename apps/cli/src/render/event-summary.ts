import { type AnyEvent, contentText, observationText } from '@x/events';
import { terminalSafe } from './terminal-safe.js';
import { actionSummary, toolArguments } from './tool-arguments.js';
import { oneLine } from './truncate.js';

/** A one-line description of an event, for listings. */
export function eventSummary(unsafeEvent: AnyEvent, max = 100): string {
  const event = terminalSafe(unsafeEvent);
  switch (event.kind) {
    case 'SystemPromptEvent':
      return oneLine(`${event.tools.length} tools · ${event.system_prompt.text}`, max);
    case 'MessageEvent':
      return oneLine(contentText(event.llm_message.content), max);
    case 'ActionEvent': {
      const args = toolArguments(event);
      const detail =
        actionSummary(event) ??
        (typeof args?.command === 'string' && event.tool_name === 'terminal'
          ? `$ ${args.command}`
          : typeof args?.message === 'string'
            ? args.message
            : event.tool_call.arguments);
      return oneLine(`${event.tool_name}: ${detail}`, max);
    }
    case 'ObservationEvent':
      return oneLine(
        `${event.tool_name}${event.observation.is_error === true ? ' (error)' : ''}: ${observationText(event.observation)}`,
        max,
      );
    case 'UserRejectObservation':
      return oneLine(`${event.tool_name} rejected: ${event.rejection_reason}`, max);
    case 'AgentErrorEvent':
      return oneLine(`${event.tool_name}: ${event.error}`, max);
    case 'ConversationErrorEvent':
    case 'ServerErrorEvent':
      return oneLine(`${event.code}: ${event.detail}`, max);
    case 'Condensation':
      return oneLine(`forgot ${event.forgotten_event_ids.length} · ${event.summary ?? ''}`, max);
    case 'CondensationSummaryEvent':
      return oneLine(event.summary, max);
    case 'ConversationStateUpdateEvent':
      return oneLine(
        `${event.key} = ${typeof event.value === 'string' ? event.value : JSON.stringify(event.value)}`,
        max,
      );
    case 'HookExecutionEvent':
      return oneLine(`${event.hook_event_type} ${event.hook_command} → ${event.exit_code}`, max);
    case 'ACPToolCallEvent':
      return oneLine(`${event.title} ${event.status ?? ''}`, max);
    case 'StreamingDeltaEvent':
      return oneLine(event.content ?? event.reasoning_content ?? '', max);
    case 'TokenEvent':
      return `${event.prompt_token_ids.length} prompt / ${event.response_token_ids.length} response token ids`;
    case 'LLMCompletionLogEvent':
      return oneLine(`${event.model_name} ${event.filename}`, max);
    case 'OpaqueEvent':
      return oneLine(`(unknown kind ${event.opaque_kind})`, max);
    case 'PauseEvent':
    case 'InterruptEvent':
    case 'CondensationRequest':
      return '';
  }
}

/** The kind to show and filter on: the written kind for events of unknown kinds. */
export function displayKind(event: AnyEvent): string {
  return event.kind === 'OpaqueEvent' ? event.opaque_kind : event.kind;
}
