import { type AnyEvent, parseEventJson, serializeEvent } from '@x/events';
import { createMemoryFileStore, type FileStore } from '@x/store';
import { ConversationSession } from '../../src/session/conversation-session.js';
import { applyEvent } from '../../src/state/apply-event.js';
import { type ConversationState, initialConversationState } from '../../src/state/conversation-state.js';

/**
 * A session over a real memory store and the real fold, as a conversation hosts it. `replica()` folds the events as
 * the log stores them (JSON), so a test can check that what the session holds in memory is what a resume would.
 */
export function sessionOnMemory(store: FileStore = createMemoryFileStore()) {
  const events: AnyEvent[] = [];
  let state: ConversationState = initialConversationState({ id: 'session-test' });
  const directory = 'conversations/session-test';
  const session = new ConversationSession({
    store,
    directory,
    get state() {
      return state;
    },
    async emit(event) {
      events.push(event);
      state = applyEvent(state, event);
    },
  });
  const replica = (): ConversationState =>
    events
      .map((event) => parseEventJson(serializeEvent(event)))
      .reduce(applyEvent, initialConversationState({ id: 'session-test' }));
  return { session, events, store, directory, replica };
}
