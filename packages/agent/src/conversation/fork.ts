import { randomUUID } from 'node:crypto';
import { type AnyEvent, createEvent, EventTree, ROOT_PARENT_ID } from '@x/events';
import { type EventLogLike, FileNotFoundError, type FileStore } from '@x/store';
import { type BudgetRecord, writeBudgetRecord } from '../budgets/budget-record.js';
import type { WorkspaceCheckpoints } from '../checkpoints/workspace-checkpoints.js';
import { parseConfirmationPolicy } from '../confirmation/confirmation-policy.js';
import { artifactPath } from '../session/artifact-files.js';
import { ARTIFACT_DELTA_KEY } from '../session/session-keys.js';
import { applyEvent } from '../state/apply-event.js';
import { type ConversationState, initialConversationState } from '../state/conversation-state.js';
import { foldBranch } from '../state/fold-branch.js';
import { readBranch } from './branch-history.js';
import { ConversationExistsError } from './errors/conversation-exists-error.js';
import { ReservedRootIdError } from './errors/reserved-root-id-error.js';
import { UnknownEventError } from './errors/unknown-event-error.js';
import type { ForkOptions } from './fork-options.js';
import { conversationDirName } from './persistence-layout.js';

/** The conversation forked from: where its events are and which store the fork goes to. */
export interface ForkSource {
  readonly id: string;
  /** Its directory in the store, where the artifacts its events record are. */
  readonly directory: string;
  readonly log: EventLogLike;
  readonly store: FileStore;
}

/** What `fork` needs of the conversation it builds (a `Conversation`, not imported: it imports this module). */
export interface ForkedConversation {
  readonly state: ConversationState;
  readonly checkpoints: WorkspaceCheckpoints;
  activeBranch(): Promise<AnyEvent[]>;
  checkpoint(): Promise<void>;
}

interface ForkInput<Forked extends ForkedConversation> {
  source: ForkSource;
  sourceState: ConversationState;
  options: ForkOptions;
  /** Builds the fork's Conversation on its log and state (the constructor is private to Conversation). */
  open(init: { log: EventLogLike; state: ConversationState }): Forked;
  /** Opens the fork's event log (the source's `openEventLog`, else event files in the store). */
  openLog(location: { conversationId: string; store: FileStore; dir: string }): Promise<EventLogLike>;
  /** Appends an event to the fork (Conversation's private emit). */
  emit(conversation: Forked, event: AnyEvent): Promise<void>;
  /** The fork's budget record (`ConversationBudget.forkRecord`); undefined when the source has no budget. */
  budget?: BudgetRecord;
}

/**
 * `Conversation.fork` (reference `LocalConversation.fork`): copies the events (all, or the branch up to
 * `fromEventId`) unchanged into a new conversation directory, sets HEAD, then records the fork's own
 * starting state (idle, default policy, fresh stats, title) as state updates and checkpoints.
 */
export async function fork<Forked extends ForkedConversation>(input: ForkInput<Forked>): Promise<Forked> {
  const { source, sourceState, options } = input;
  const { events, tree } = await readBranch(source.log, sourceState.leaf_event_id, sourceState.head_is_empty);
  if (options.fromEventId === ROOT_PARENT_ID) throw new ReservedRootIdError(source.id, 'fork');
  if (options.fromEventId !== undefined && !tree.has(options.fromEventId)) {
    throw new UnknownEventError(source.id, options.fromEventId);
  }
  const id = options.id ?? randomUUID();
  const dir = conversationDirName(id);
  if ((await source.store.exists(`${dir}/base_state.json`)) || (await source.store.exists(`${dir}/events`))) {
    throw new ConversationExistsError(id, source.store.describe(dir));
  }

  const indices =
    options.fromEventId === undefined ? events.map((_, index) => index) : tree.pathToRoot(options.fromEventId);
  const copied = indices.map((index) => events[index]).filter((event): event is AnyEvent => event !== undefined);
  const log = await input.openLog({ conversationId: id, store: source.store, dir: `${dir}/events` });
  if (log.length > 0) throw new ConversationExistsError(id, source.store.describe(dir));
  // Before any event: a fork that can be opened always has its budget (a crash never leaves one without).
  if (input.budget !== undefined) await writeBudgetRecord(source.store, dir, input.budget);
  let state = initialConversationState({
    id,
    maxIterations: sourceState.max_iterations,
    stuckDetection: sourceState.stuck_detection,
  });
  // The artifact versions the copied events record live beside the source's files, not in its log: copied first,
  // so the fork never records a version it cannot load (one written after the branch point stays the source's).
  await copyRecordedArtifacts(source.store, source.directory, dir, copied);
  for (const event of copied) {
    await log.append(event);
    state = applyEvent(state, event);
  }
  const headIsEmpty = options.fromEventId === undefined ? sourceState.head_is_empty : false;
  const leaf = options.fromEventId ?? (headIsEmpty ? undefined : sourceState.leaf_event_id);
  state = foldBranch(state, copied, EventTree.from(copied), leaf, headIsEmpty);

  const conversation = input.open({ log, state });
  const desired: Record<string, unknown> = {
    execution_status: forkStatus(conversation.state),
    confirmation_policy: parseConfirmationPolicy(options.confirmationPolicy ?? { kind: 'NeverConfirm' }),
    stats: options.resetMetrics === false ? sourceState.stats : { usage_to_metrics: {} },
    blocked_actions: {},
    blocked_messages: {},
    ...(options.title === undefined ? {} : { title: options.title }),
  };
  for (const [key, value] of Object.entries(desired)) {
    const current = (conversation.state as Record<string, unknown>)[key];
    if (JSON.stringify(current) !== JSON.stringify(value)) {
      await input.emit(conversation, createEvent('ConversationStateUpdateEvent', { key, value }));
    }
  }
  await conversation.checkpoint();
  return conversation;
}

/**
 * Idle, unless the copied branch ends with actions that have no result: they wait in the fork's own approval queue
 * (`waiting_for_confirmation`), whatever the source had decided on them. The source's decision records are not
 * copied: an approval given there was for that conversation (its workspace, its policy), and an idle fork would run
 * such an action at its next step with no decision at all (the step executes whatever is pending).
 */
function forkStatus(state: ConversationState): 'idle' | 'waiting_for_confirmation' {
  return state.pending_actions.length > 0 ? 'waiting_for_confirmation' : 'idle';
}

async function copyRecordedArtifacts(store: FileStore, from: string, to: string, events: AnyEvent[]): Promise<void> {
  for (const event of events) {
    if (event.kind !== 'ConversationStateUpdateEvent' || event.key !== ARTIFACT_DELTA_KEY) continue;
    const delta = event.value;
    if (typeof delta !== 'object' || delta === null || Array.isArray(delta)) continue;
    for (const [name, version] of Object.entries(delta)) {
      if (typeof version !== 'number') continue;
      let file: string;
      try {
        file = await store.read(artifactPath(from, name, version));
      } catch (error) {
        // A version the source recorded but lost (a damaged store) stays missing in the fork, as in the source.
        if (FileNotFoundError.isInstance(error)) continue;
        throw error;
      }
      await store.writeIfAbsent(artifactPath(to, name, version), file);
    }
  }
}
