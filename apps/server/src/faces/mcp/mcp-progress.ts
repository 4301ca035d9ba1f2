import type { AnyEvent } from '@x/events';

const MAX_TEXT = 120;

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_TEXT ? `${line.slice(0, MAX_TEXT - 1)}…` : line;
}

function textOf(content: readonly { type: string; text?: string }[]): string {
  return content.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');
}

/**
 * The `message` of the MCP progress notification sent for one event of a run: what a person watching the run
 * wants to read (the tool the agent calls, what it says, an error), one short line.
 */
export function progressMessageOf(event: AnyEvent): string {
  switch (event.kind) {
    case 'ActionEvent': {
      const action = event.action as { command?: unknown; message?: unknown } | null | undefined;
      const detail =
        typeof action?.command === 'string'
          ? action.command
          : typeof action?.message === 'string'
            ? action.message
            : '';
      return clip(detail === '' ? `agent calls ${event.tool_name}` : `agent calls ${event.tool_name}: ${detail}`);
    }
    case 'ObservationEvent':
      return clip(`${event.tool_name} returned`);
    case 'MessageEvent':
      return clip(`${event.source} says: ${textOf(event.llm_message.content)}`);
    case 'AgentErrorEvent':
      return clip(`tool error: ${event.error}`);
    case 'UserRejectObservation':
      return clip(`${event.tool_name} rejected: ${event.rejection_reason}`);
    case 'ConversationStateUpdateEvent':
      return event.key === 'execution_status' ? clip(`status: ${String(event.value)}`) : 'state updated';
    default:
      return event.kind;
  }
}
