import { describe, expect, it } from 'vitest';
import { familyGraph } from './family-graph.js';
import { layoutTree } from './tree-layout.js';

const segment = (id: string, parent: string | null, active = false) => ({
  id,
  parent_segment_id: parent,
  first_event_id: id,
  last_event_id: `${id}-last`,
  event_count: 2,
  label: `user: ${id}`,
  active,
});

describe('layoutTree', () => {
  it('puts children one column right of their parent and centres a parent on its children', () => {
    const placed = layoutTree(
      ['root', 'a', 'b', 'c'],
      [
        { from: 'root', to: 'a', kind: 'contains' },
        { from: 'a', to: 'b', kind: 'branch' },
        { from: 'a', to: 'c', kind: 'branch' },
      ],
    );
    expect(placed.get('b')).toEqual({ column: 2, row: 0 });
    expect(placed.get('c')).toEqual({ column: 2, row: 1 });
    expect(placed.get('a')).toEqual({ column: 1, row: 0.5 });
    expect(placed.get('root')).toEqual({ column: 0, row: 0.5 });
  });

  it('places every node once, even on a cycle or a second parent', () => {
    const placed = layoutTree(
      ['x', 'y', 'z'],
      [
        { from: 'x', to: 'y', kind: 'branch' },
        { from: 'y', to: 'x', kind: 'branch' },
        { from: 'z', to: 'y', kind: 'branch' },
      ],
    );
    expect([...placed.keys()].sort()).toEqual(['x', 'y', 'z']);
  });
});

describe('familyGraph', () => {
  it('hangs a fork from the segment it was forked at and sub-agents from their conversation', () => {
    const source = {
      conversation_id: 'source',
      leaf_event_id: 'b-last',
      title: 'Source',
      execution_status: 'finished',
      forked_from_conversation_id: null,
      forked_from_event_id: null,
      segments: [segment('a', null, true), segment('b', 'a', true), segment('c', 'a')],
      forks: [{ conversation_id: 'fork', from_event_id: 'a-last', segment_id: 'a' }],
      sub_conversations: [{ conversation_id: 'child', leaf_event_id: 's-last', segments: [segment('s', null)] }],
    };
    const fork = {
      ...source,
      conversation_id: 'fork',
      title: null,
      forked_from_conversation_id: 'source',
      forked_from_event_id: 'a-last',
      segments: [segment('f', null, true)],
      forks: [],
      sub_conversations: [],
    };
    const graph = familyGraph([source, fork], 'fork');
    expect(graph.edges).toEqual(
      expect.arrayContaining([
        { from: 'c:source', to: 's:source:a', kind: 'contains' },
        { from: 's:source:a', to: 's:source:b', kind: 'branch' },
        { from: 's:source:a', to: 's:source:c', kind: 'branch' },
        { from: 's:source:a', to: 'c:fork', kind: 'fork' },
        { from: 'c:source', to: 'sub:source:child', kind: 'delegate' },
        { from: 'c:fork', to: 's:fork:f', kind: 'contains' },
      ]),
    );
    expect(graph.edges).toHaveLength(6);
    const byKey = new Map(graph.nodes.map((node) => [node.key, node]));
    expect(byKey.get('c:fork')?.current).toBe(true);
    expect(byKey.get('s:fork:f')?.current).toBe(true);
    expect(byKey.get('s:source:b')?.current).toBe(false);
    expect(byKey.get('s:source:b')?.href).toBe('#/c/source/e/b-last');
    expect(byKey.get('sub:source:child')?.href).toBe('#/c/source/sub/child');
  });
});
