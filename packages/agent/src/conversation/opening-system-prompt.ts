import type { SystemPromptEvent } from '@x/events';
import type { EventLogLike } from '@x/store';
import { readableEvents } from './readable-events.js';

/** The reference's `INIT_STATE_PREFIX_SCAN_WINDOW`: how many of the log's first events it looks at for the prompt. */
const PREFIX_WINDOW = 3;

/**
 * Writes the agent's SystemPromptEvent when the log's first events hold none, as the reference's `Agent.init_state`
 * does at a conversation's first message or run: a conversation the reference created but never messaged has
 * base_state.json and no event (its prompt is written lazily), and resuming it must not start the log with the
 * user's message. An unreadable event in the window may be the prompt: nothing is written then (a second prompt
 * would be worse than none).
 */
export async function writeMissingSystemPrompt(
  log: EventLogLike,
  prompt: () => SystemPromptEvent,
  emit: (event: SystemPromptEvent) => Promise<void>,
): Promise<void> {
  for await (const event of readableEvents(log, 0, Math.min(PREFIX_WINDOW, log.length))) {
    if (event === undefined || event.kind === 'SystemPromptEvent') return;
  }
  await emit(prompt());
}
