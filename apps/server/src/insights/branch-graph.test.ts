import { describe, expect, it } from 'vitest';
import { branchGraph } from './branch-graph.js';

const message = (id: string, parent: string | undefined, label?: string) => ({
  id,
  kind: 'MessageEvent',
  ...(parent === undefined ? {} : { parent_id: parent }),
  ...(label === undefined ? {} : { label }),
});

describe('branchGraph', () => {
  it('folds single-child chains into segments and splits at every branch point', () => {
    // a → b → c, then navigate back to b and continue with d → e: two branches from b.
    const events = [
      message('a', undefined, 'user: hello'),
      message('b', 'a'),
      { id: 'state', kind: 'ConversationStateUpdateEvent' },
      message('c', 'b', 'agent: first'),
      message('d', 'b', 'user: second try'),
      message('e', 'd'),
    ];
    const { segments, segmentOf } = branchGraph(events, 'e');
    expect(segments).toEqual([
      {
        id: 'a',
        parent_segment_id: null,
        first_event_id: 'a',
        last_event_id: 'b',
        event_count: 2,
        label: 'user: hello',
        active: true,
      },
      {
        id: 'c',
        parent_segment_id: 'a',
        first_event_id: 'c',
        last_event_id: 'c',
        event_count: 1,
        label: 'agent: first',
        active: false,
      },
      {
        id: 'd',
        parent_segment_id: 'a',
        first_event_id: 'd',
        last_event_id: 'e',
        event_count: 2,
        label: 'user: second try',
        active: true,
      },
    ]);
    expect(segmentOf('b')).toBe('a');
    expect(segmentOf('e')).toBe('d');
    expect(segmentOf('state')).toBeUndefined();
  });

  it('follows the previous event for a legacy event without parent_id and starts a new root at __root__', () => {
    const { segments } = branchGraph(
      [
        { id: 'a', kind: 'SystemPromptEvent' },
        message('b', undefined, 'user: legacy'),
        message('r', '__root__', 'user: fresh start'),
      ],
      'r',
    );
    expect(
      segments.map((segment) => [segment.id, segment.parent_segment_id, segment.event_count, segment.label]),
    ).toEqual([
      ['a', null, 2, 'user: legacy'],
      ['r', null, 1, 'user: fresh start'],
    ]);
    expect(segments.map((segment) => segment.active)).toEqual([false, true]);
  });

  it('treats a parent it never saw as a root rather than failing', () => {
    const { segments } = branchGraph([message('x', 'missing')], undefined);
    expect(segments).toMatchObject([{ id: 'x', parent_segment_id: null, active: false, label: '(MessageEvent)' }]);
  });
});
