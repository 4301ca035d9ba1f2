import type { AnyEvent } from '@x/events';
import type { EventLogLike, FileStore } from '@x/store';
import type { SecretCipher } from '../secrets/secret-cipher.js';
import { SecretRegistry } from '../secrets/secret-registry.js';
import { applyEvent } from '../state/apply-event.js';
import { type ConversationState, initialConversationState } from '../state/conversation-state.js';
import { foldBranch, treeOf } from '../state/fold-branch.js';
import { persistedAnalyzer } from './analyzer-setting.js';
import { checkpointFromBaseState, parseBaseState } from './base-state.js';
import { changedSinceCheckpoint, hasChanges } from './changed-since-checkpoint.js';
import { ConversationNotFoundError } from './errors/conversation-not-found-error.js';
import { readableEvents } from './readable-events.js';

export interface PersistedConversation {
  log: EventLogLike;
  state: ConversationState;
  /** The secrets from base_state.json (decrypted with the cipher), when it holds any. */
  secrets: SecretRegistry | undefined;
  /** The security analyzer base_state.json records (see `persistedAnalyzer`); undefined when it says nothing. */
  securityAnalyzer: 'llm' | 'none' | undefined;
  /** base_state.json as read (undefined without one): its fields x does not manage are written back unchanged. */
  recordedBaseState: Readonly<Record<string, unknown>> | undefined;
  /**
   * Whether base_state.json's own HEAD or status won over the events (a directory the reference wrote, or whose
   * HEAD it moved; a checkpoint of ours the log does not reach): they would win again over every event appended
   * before our next checkpoint, so one must be written before the first append (`ConversationEvents`).
   */
  checkpointBeforeAppend: boolean;
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
  /** Its directory in the store (`conversationDirName(id)` unless it was found under another name). */
  directory: string;
  cipher: SecretCipher | undefined;
  openLog: (location: { conversationId: string; store: FileStore; dir: string }) => Promise<EventLogLike>;
}): Promise<PersistedConversation> {
  const { store, id, cipher } = options;
  const dir = options.directory;
  const log = await options.openLog({ conversationId: id, store, dir: `${dir}/events` });
  const hasBase = await store.exists(`${dir}/base_state.json`);
  if (!hasBase && log.length === 0) throw new ConversationNotFoundError(id, store.describe(dir));

  let state = initialConversationState({ id });
  let secrets: SecretRegistry | undefined;
  let authoritative: Partial<ConversationState> = {};
  let securityAnalyzer: 'llm' | 'none' | undefined;
  let recordedBaseState: Readonly<Record<string, unknown>> | undefined;
  /** HEAD as base_state.json records it, when it says something we must follow (reference dirs, external navigation). */
  let recordedHead: { leaf: string | undefined; empty: boolean } | undefined;
  let fromCheckpoint = false;
  /** base_state.json was changed since our checkpoint in it (by the reference): it won over the checkpoint. */
  let changedSince = false;
  if (hasBase) {
    const where = store.describe(`${dir}/base_state.json`);
    const file = parseBaseState(await store.read(`${dir}/base_state.json`), where);
    recordedBaseState = file.raw;
    const checkpoint = checkpointFromBaseState(file);
    const fileHead = { leaf: file.leaf_event_id ?? undefined, empty: file.head_is_empty ?? false };
    // What the reference changed after our checkpoint (it rewrites the file, keeping `agent_state` as it was) wins
    // over the checkpoint: its status, policy, limits, stats, hook blocks, HEAD and security analyzer.
    const changed = checkpoint === undefined ? undefined : changedSinceCheckpoint(file.raw, checkpoint);
    securityAnalyzer = changed?.securityAnalyzer ?? persistedAnalyzer(file, checkpoint !== undefined);
    if (checkpoint !== undefined && changed !== undefined && checkpoint.event_count <= log.length) {
      state = checkpoint;
      fromCheckpoint = true;
      changedSince = hasChanges(changed);
      recordedHead = changed.head;
      authoritative = changed.state;
    } else {
      if (file.leaf_event_id !== undefined || file.head_is_empty !== undefined) recordedHead = fileHead;
      const blocked = {
        ...(file.blocked_actions === undefined ? {} : { blocked_actions: file.blocked_actions }),
        ...(file.blocked_messages === undefined ? {} : { blocked_messages: file.blocked_messages }),
      };
      authoritative = {
        ...(file.execution_status === undefined ? {} : { execution_status: file.execution_status }),
        ...(file.confirmation_policy === undefined ? {} : { confirmation_policy: file.confirmation_policy }),
        ...(file.stats === undefined ? {} : { stats: file.stats }),
        ...blocked,
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
  // Fold the events after the checkpoint (all of them for a reference directory). A tail event whose
  // parent is not HEAD means HEAD moved in between (another branch): the branch fields are refolded.
  const all: (AnyEvent | undefined)[] | undefined = fromCheckpoint ? undefined : [];
  let branchSwitched = false;
  for await (const event of readableEvents(log, state.event_count)) {
    all?.push(event);
    if (event !== undefined && switchesBranch(state, event)) branchSwitched = true;
    state = event === undefined ? { ...state, event_count: state.event_count + 1 } : applyEvent(state, event);
  }
  state = { ...state, ...authoritative };
  if (!fromCheckpoint || branchSwitched || recordedHead !== undefined) {
    const events = all ?? (await readAll(log));
    const tree = treeOf(events, (index) => log.idAt(index));
    const head =
      recordedHead ?? (fromCheckpoint ? { leaf: state.leaf_event_id, empty: state.head_is_empty } : undefined);
    const leaf = head === undefined ? tree.activeLeaf(undefined) : head.empty ? undefined : head.leaf;
    if (leaf === undefined || tree.has(leaf)) state = foldBranch(state, events, tree, leaf, head?.empty ?? false);
  }
  const checkpointBeforeAppend = hasBase && (!fromCheckpoint || changedSince);
  return { log, state, secrets, securityAnalyzer, recordedBaseState, checkpointBeforeAppend };
}

/** Whether appending `event` to a log whose HEAD is `state.leaf_event_id` starts or continues another branch. */
function switchesBranch(state: ConversationState, event: AnyEvent): boolean {
  if (event.kind === 'ConversationStateUpdateEvent' || event.parent_id === undefined) return false;
  const parent = event.parent_id === '__root__' ? undefined : event.parent_id;
  const head = state.head_is_empty ? undefined : state.leaf_event_id;
  return parent !== head;
}

async function readAll(log: EventLogLike): Promise<(AnyEvent | undefined)[]> {
  const events: (AnyEvent | undefined)[] = [];
  for await (const event of readableEvents(log, 0)) events.push(event);
  return events;
}
