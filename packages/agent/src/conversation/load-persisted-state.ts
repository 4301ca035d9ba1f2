import type { EventLogLike, FileStore } from '@x/store';
import type { SecretCipher } from '../secrets/secret-cipher.js';
import { SecretRegistry } from '../secrets/secret-registry.js';
import { applyEvent } from '../state/apply-event.js';
import { type ConversationState, initialConversationState } from '../state/conversation-state.js';
import { checkpointFromBaseState, parseBaseState } from './base-state.js';
import { ConversationNotFoundError } from './errors/conversation-not-found-error.js';
import { conversationDirName } from './persistence-layout.js';
import { readableEvents } from './readable-events.js';

export interface PersistedConversation {
  log: EventLogLike;
  state: ConversationState;
  /** The secrets from base_state.json (decrypted with the cipher), when it holds any. */
  secrets: SecretRegistry | undefined;
}

/**
 * Reads a persisted conversation's derived state: base_state.json (our checkpoint of the fold, with
 * the number of events it covers) plus a fold of only the events appended after it, so opening costs
 * one listing and one small read however long the history is. For directories written by the
 * reference (no checkpoint of ours), every event is folded and the file's status, policy and stats,
 * which the reference keeps current, win.
 */
export async function loadPersistedState(options: {
  store: FileStore;
  id: string;
  cipher: SecretCipher | undefined;
  openLog: (location: { conversationId: string; store: FileStore; dir: string }) => Promise<EventLogLike>;
}): Promise<PersistedConversation> {
  const { store, id, cipher } = options;
  const dir = conversationDirName(id);
  const log = await options.openLog({ conversationId: id, store, dir: `${dir}/events` });
  const hasBase = await store.exists(`${dir}/base_state.json`);
  if (!hasBase && log.length === 0) throw new ConversationNotFoundError(id, store.describe(dir));

  let state = initialConversationState({ id });
  let secrets: SecretRegistry | undefined;
  let authoritative: Partial<ConversationState> = {};
  if (hasBase) {
    const where = store.describe(`${dir}/base_state.json`);
    const file = parseBaseState(await store.read(`${dir}/base_state.json`), where);
    const checkpoint = checkpointFromBaseState(file);
    if (checkpoint !== undefined && checkpoint.event_count <= log.length) {
      state = checkpoint;
    } else {
      authoritative = {
        ...(file.execution_status === undefined ? {} : { execution_status: file.execution_status }),
        ...(file.confirmation_policy === undefined ? {} : { confirmation_policy: file.confirmation_policy }),
        ...(file.stats === undefined ? {} : { stats: file.stats }),
      };
      state = {
        ...state,
        ...(file.max_iterations === undefined ? {} : { max_iterations: file.max_iterations }),
        ...(file.stuck_detection === undefined ? {} : { stuck_detection: file.stuck_detection }),
      };
    }
    if (file.secret_registry !== undefined) {
      secrets = SecretRegistry.fromJSON(file.secret_registry, cipher === undefined ? {} : { cipher });
    }
  }
  for await (const event of readableEvents(log, state.event_count)) {
    state = event === undefined ? { ...state, event_count: state.event_count + 1 } : applyEvent(state, event);
  }
  return { log, state: { ...state, ...authoritative }, secrets };
}
