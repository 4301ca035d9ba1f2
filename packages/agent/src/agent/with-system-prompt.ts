import type { AnyEvent, SystemPromptEvent } from '@x/events';

/**
 * The events with `prompt` in place of the log's SystemPromptEvent (prepended when the view has none): what the
 * model sees once control passed to an agent other than the one that opened the conversation. The log keeps the
 * first agent's prompt; the agent in control is named by the `active_agent` state update.
 */
export function withSystemPrompt(events: readonly AnyEvent[], prompt: SystemPromptEvent): AnyEvent[] {
  const index = events.findIndex((event) => event.kind === 'SystemPromptEvent');
  if (index === -1) return [prompt, ...events];
  return [...events.slice(0, index), prompt, ...events.slice(index + 1)];
}
