// The parts of the tree the conversations lean on beyond the reference fixtures: the legacy fallback at the very
// first event, artifacts a newer writer left (read as OpaqueEvents), unreadable slots, and cycles met while asking
// whether an event is on a branch.
import { describe, expect, it } from 'vitest';
import { EventTree, EventTreeError, isTreeArtifactKind, ROOT_PARENT_ID } from '../../src/index.js';

const node = (id: string, parent_id?: string, kind = 'MessageEvent') => ({
  id,
  kind,
  ...(parent_id === undefined ? {} : { parent_id }),
});

describe('EventTree', () => {
  it('falls back to the first event when everything after it is a legacy tail artifact', () => {
    const tree = EventTree.from([
      node('a'),
      node('s', undefined, 'ConversationStateUpdateEvent'),
      node('e', undefined, 'ConversationErrorEvent'),
    ]);
    expect(tree.activeLeaf(undefined)).toBe('a');
    expect(EventTree.from([node('a')]).activeLeaf(undefined)).toBe('a');
    expect(EventTree.from([node('s', undefined, 'ConversationStateUpdateEvent')]).activeLeaf(undefined)).toBe(
      undefined,
    );
  });

  it('skips an artifact a newer version wrote (read as an OpaqueEvent) by the kind in its JSON', () => {
    const tree = EventTree.from([
      node('a'),
      node('b', 'a'),
      { id: 'u', kind: 'OpaqueEvent', opaque_kind: 'ConversationStateUpdateEvent' },
    ]);
    expect(tree.activeLeaf(undefined)).toBe('b');
    // An unknown kind that is not an artifact is a real event, and the leaf.
    tree.add({ id: 'f', kind: 'OpaqueEvent', opaque_kind: 'FutureEvent' });
    expect(tree.activeLeaf(undefined)).toBe('f');
  });

  it('keeps an unreadable slot in the log order, linked to its neighbours', () => {
    const tree = new EventTree();
    tree.add(node('a'));
    tree.addUnreadable('broken');
    tree.add(node('c'));
    expect(tree.size).toBe(3);
    expect(tree.has('broken')).toBe(true);
    expect(tree.has('missing')).toBe(false);
    expect(tree.indexOf('c')).toBe(2);
    expect(tree.parentOf('c')).toBe('broken');
    expect(tree.parentOf('broken')).toBe('a');
    expect(tree.pathToRoot('c')).toEqual([0, 1, 2]);
    expect(tree.activeLeaf(undefined)).toBe('c');
  });

  it('reports the parent each event was written with', () => {
    const tree = EventTree.from([node('a'), node('b', 'a'), node('c', 'a'), node('r', ROOT_PARENT_ID)]);
    expect(tree.parentOf('a')).toBeUndefined();
    expect(tree.parentOf('c')).toBe('a');
    expect(tree.parentOf('r')).toBeUndefined();
    expect(tree.size).toBe(4);
    expect(() => tree.parentOf('zz')).toThrow(EventTreeError);
  });

  it('throws on a cycle while asking whether an event is on a branch, rather than looping', () => {
    const tree = EventTree.from([node('x'), node('a', 'b'), node('b', 'a')]);
    let thrown: unknown;
    try {
      tree.isOnPathFrom('a', 'x');
    } catch (error) {
      thrown = error;
    }
    expect(EventTreeError.isInstance(thrown) && thrown.reason).toBe('cycle');
    expect(tree.isOnPathFrom('a', 'b')).toBe(true);
  });
});

describe('isTreeArtifactKind', () => {
  it('is true of state updates only: a conversation error is a node of the tree (it moves HEAD)', () => {
    expect(isTreeArtifactKind('ConversationStateUpdateEvent')).toBe(true);
    expect(isTreeArtifactKind('ConversationErrorEvent')).toBe(false);
    expect(isTreeArtifactKind('MessageEvent')).toBe(false);
  });
});
