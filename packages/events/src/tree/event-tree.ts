import { EventTreeError } from '../errors/event-tree-error.js';
import { ROOT_PARENT_ID } from '../schemas/event-base.js';

/** What the tree needs to know of an event: its id, its written `parent_id` and its kind. */
export interface TreeNodeInput {
  readonly id: string;
  readonly parent_id?: string | undefined;
  readonly kind: string;
  /** For an OpaqueEvent, the kind written in its JSON. */
  readonly opaque_kind?: string;
}

/** Kinds that are not tree nodes: appending one does not move HEAD (reference §7.7). */
export function isTreeArtifactKind(kind: string): boolean {
  return kind === 'ConversationStateUpdateEvent';
}

/** Kinds the legacy leaf fallback skips at the tail of a log (reference `_resolve_active_leaf`). */
function isLegacyTailArtifact(kind: string): boolean {
  return kind === 'ConversationStateUpdateEvent' || kind === 'ConversationErrorEvent';
}

/**
 * An index of a conversation's tree (reference §7.7), built incrementally as events are appended in
 * log order: `add` is O(1). The effective parent of the event at index i is its `parent_id`; none
 * for `"__root__"`; for a legacy event without `parent_id`, none at index 0 and otherwise the event at
 * i − 1. `pathToRoot` walks from a leaf to the root (O(branch length)); `isOnPathFrom` answers "is this
 * event an ancestor of that leaf" the same way.
 */
export class EventTree {
  readonly #ids: string[] = [];
  readonly #parents: (string | undefined)[] = [];
  readonly #kinds: string[] = [];
  readonly #index = new Map<string, number>();

  /** Number of events indexed. */
  get size(): number {
    return this.#ids.length;
  }

  /** Builds the tree of a whole log, in order. */
  static from(events: Iterable<TreeNodeInput>): EventTree {
    const tree = new EventTree();
    for (const event of events) tree.add(event);
    return tree;
  }

  /** Indexes the next event of the log. A duplicate id keeps its first index, as the reference's log does. */
  add(event: TreeNodeInput): void {
    const index = this.#ids.length;
    this.#ids.push(event.id);
    this.#kinds.push(event.kind === 'OpaqueEvent' ? (event.opaque_kind ?? event.kind) : event.kind);
    this.#parents.push(effectiveParent(event.parent_id, index === 0 ? undefined : this.#ids[index - 1]));
    if (!this.#index.has(event.id)) this.#index.set(event.id, index);
  }

  /** Indexes a log slot whose event could not be read (a corrupt file): a legacy link to its neighbour. */
  addUnreadable(id: string): void {
    this.add({ id, kind: 'Unreadable' });
  }

  has(id: string): boolean {
    return this.#index.has(id);
  }

  /** Log index of the event `id`; throws `EventTreeError` for an unknown id. */
  indexOf(id: string): number {
    const index = this.#index.get(id);
    if (index === undefined) throw new EventTreeError('unknown_event', id);
    return index;
  }

  /** The effective parent of `id` (undefined for a root). */
  parentOf(id: string): string | undefined {
    return this.#parents[this.indexOf(id)];
  }

  /**
   * The active leaf (HEAD): `leafEventId` when set; none when `headIsEmpty`; otherwise (a log written
   * before the tree existed) the last event that is not a state-update or conversation-error artifact.
   */
  activeLeaf(leafEventId: string | undefined, headIsEmpty = false): string | undefined {
    if (leafEventId !== undefined) return leafEventId;
    if (headIsEmpty) return undefined;
    for (let index = this.#ids.length - 1; index >= 0; index--) {
      if (!isLegacyTailArtifact(this.#kinds[index] as string)) return this.#ids[index];
    }
    return undefined;
  }

  /**
   * Log indices of the branch from the root to `leafId` (root first); `[]` for no leaf. Throws
   * `EventTreeError` on an unknown id or a cycle.
   */
  pathToRoot(leafId: string | undefined): number[] {
    const path: number[] = [];
    const seen = new Set<string>();
    for (let id = leafId; id !== undefined; ) {
      if (seen.has(id)) throw new EventTreeError('cycle', id);
      seen.add(id);
      const index = this.indexOf(id);
      path.push(index);
      id = this.#parents[index];
    }
    return path.reverse();
  }

  /** Whether `ancestorId` is `leafId` or one of its ancestors. */
  isOnPathFrom(leafId: string | undefined, ancestorId: string): boolean {
    const seen = new Set<string>();
    for (let id = leafId; id !== undefined; id = this.#parents[this.indexOf(id)]) {
      if (id === ancestorId) return true;
      if (seen.has(id)) throw new EventTreeError('cycle', id);
      seen.add(id);
    }
    return false;
  }
}

function effectiveParent(parentId: string | undefined, previousId: string | undefined): string | undefined {
  if (parentId === ROOT_PARENT_ID) return undefined;
  if (parentId !== undefined) return parentId;
  return previousId;
}

/**
 * The `parent_id` to stamp on an event appended at HEAD (reference `_stamp_parent_id`): the active
 * leaf; `"__root__"` when HEAD is empty over a non-empty log (a deliberate new root); none for the
 * first event of a log.
 */
export function parentForAppend(activeLeaf: string | undefined, logLength: number): string | undefined {
  if (activeLeaf !== undefined) return activeLeaf;
  return logLength > 0 ? ROOT_PARENT_ID : undefined;
}
