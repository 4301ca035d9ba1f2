import { type AnyEvent, ROOT_PARENT_ID, View, withParent } from '@x/events';
import { createMemoryFileStore, EventLog, type FileStore } from '@x/store';
import { applyEvent } from '../../src/state/apply-event.js';
import { type ConversationState, initialConversationState } from '../../src/state/conversation-state.js';

/**
 * A conversation's log (in `store`, under `<dir>/events`), its state and its live view, for the view checkpoint's
 * tests: `append` stamps each event after HEAD (state updates keep HEAD), logs, folds and shows it.
 */
export async function checkpointConversation(store: FileStore = createMemoryFileStore(), dir = 'conversation') {
  const log = await EventLog.open(store, { dir: `${dir}/events` });
  let state: ConversationState = initialConversationState({ id: 'c' });
  let parent: string = ROOT_PARENT_ID;
  const view = new View();
  return {
    log,
    view,
    get state() {
      return state;
    },
    async append(event: AnyEvent): Promise<AnyEvent> {
      const stamped = withParent(event, parent);
      await log.append(stamped);
      state = applyEvent(state, stamped);
      view.append(stamped);
      if (event.kind !== 'ConversationStateUpdateEvent') parent = stamped.id;
      return stamped;
    },
  };
}
