import { type AnyEvent, ROOT_PARENT_ID } from '@x/events';
import type { EventLogLike } from '@x/store';
import { foldBranch } from '../state/fold-branch.js';
import { readBranch } from './branch-history.js';
import { ReservedRootIdError } from './errors/reserved-root-id-error.js';
import { UnknownEventError } from './errors/unknown-event-error.js';
import type { EventFold } from './event-fold.js';

/** What moving between branches needs of the conversation. */
export interface BranchesHost {
  readonly id: string;
  readonly log: EventLogLike;
  readonly fold: EventFold;
  /** Resolves once every event queued so far is applied. */
  settled(): Promise<unknown>;
  checkpoint(): Promise<void>;
  /** Makes the workspace what it was at the event (workspace checkpoints); before HEAD moves, so a failure moves nothing. */
  restore(eventId: string | null): Promise<unknown>;
}

/** The active branch of a conversation's event tree, and moving HEAD (reference `navigate_to`). */
export class Branches {
  readonly #host: BranchesHost;

  constructor(host: BranchesHost) {
    this.#host = host;
  }

  /** The events on the active branch, root first. Reads the whole log. */
  async activeBranch(): Promise<AnyEvent[]> {
    await this.#host.settled();
    const { state } = this.#host.fold;
    return (await readBranch(this.#host.log, state.leaf_event_id, state.head_is_empty)).branch;
  }

  /** Moves HEAD to `eventId` (`null`: an empty HEAD) and checkpoints; throws `UnknownEventError` for an unknown id. */
  async navigateTo(eventId: string | null): Promise<void> {
    const { fold } = this.#host;
    await this.#host.settled();
    if (eventId === ROOT_PARENT_ID) throw new ReservedRootIdError(this.#host.id, 'navigateTo');
    const leaf = eventId ?? undefined;
    const { events, tree, branch } = await readBranch(this.#host.log, leaf, eventId === null);
    if (leaf !== undefined && !tree.has(leaf)) throw new UnknownEventError(this.#host.id, leaf);
    await this.#host.restore(eventId);
    fold.moveHead({ state: foldBranch(fold.state, events, tree, leaf, eventId === null), branch });
    await this.#host.checkpoint();
  }
}
