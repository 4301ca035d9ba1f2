import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type AnyEvent,
  activeBranch,
  createEvent,
  EventTree,
  EventTreeError,
  eventsToMessages,
  parentForAppend,
  parseEventJson,
  ROOT_PARENT_ID,
  serializeEvent,
  View,
  withParent,
} from '../../src/index.js';

const branched = join(import.meta.dirname, '..', '__fixtures__', 'branched', '04_navigate_and_branch');

function readDir(dir: string): { texts: string[]; events: AnyEvent[] } {
  const files = readdirSync(join(dir, 'events'))
    .filter((file) => file.endsWith('.json'))
    .sort();
  const texts = files.map((file) => readFileSync(join(dir, 'events', file), 'utf8'));
  return { texts, events: texts.map((text) => parseEventJson(text)) };
}

const node = (id: string, parent_id?: string, kind = 'MessageEvent') => ({
  id,
  kind,
  ...(parent_id === undefined ? {} : { parent_id }),
});

describe('EventTree (reference §7.7)', () => {
  it('follows the active branch of a navigated conversation written as the reference writes it', () => {
    const { events, texts } = readDir(branched);
    const expected = JSON.parse(readFileSync(join(branched, 'expected.json'), 'utf8'));
    const baseState = JSON.parse(readFileSync(join(branched, 'base_state.json'), 'utf8'));
    expect(events).toHaveLength(expected.event_count);
    const branch = activeBranch(events, { leafEventId: baseState.leaf_event_id });
    expect(branch.map((event) => event.id)).toEqual(expected.active_branch_ids);
    // The View and the LLM messages show only that branch.
    const view = View.fromEvents(branch);
    const texts2 = eventsToMessages(view.events).map((message) =>
      message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
    );
    expect(texts2.slice(1)).toEqual(['Actually, what is the capital of Italy?', 'The capital of Italy is Rome.']);
    for (const id of expected.abandoned_ids) expect(view.events.some((event) => event.id === id)).toBe(false);
    // Every file still round-trips byte-equal (event 4 has a Python float).
    for (const [index, event] of events.entries()) expect(serializeEvent(event)).toBe(texts[index]);
  });

  it('without a leaf, the legacy fallback is the last event that is not a state update or conversation error', () => {
    const tree = EventTree.from([
      node('a'),
      node('b'),
      node('c', undefined, 'ConversationErrorEvent'),
      node('d', undefined, 'ConversationStateUpdateEvent'),
    ]);
    expect(tree.activeLeaf(undefined)).toBe('b');
    expect(tree.activeLeaf(undefined, true)).toBeUndefined();
    expect(tree.activeLeaf('c')).toBe('c');
    // Legacy events (no parent_id) chain to their predecessor: a linear log is one branch.
    expect(tree.pathToRoot('d')).toEqual([0, 1, 2, 3]);
  });

  it('loads a linear log without parent_id unchanged', () => {
    const events = [
      createEvent('MessageEvent', { source: 'user', llm_message: { role: 'user', content: [] } }),
      createEvent('PauseEvent', {}),
      createEvent('MessageEvent', { source: 'user', llm_message: { role: 'user', content: [] } }),
    ];
    expect(activeBranch(events)).toEqual(events);
  });

  it('treats "__root__" as an explicit root and a navigated-away branch as abandoned', () => {
    const tree = EventTree.from([
      node('a'),
      node('b', 'a'),
      node('s', 'b', 'ConversationStateUpdateEvent'),
      node('c', 'a'),
      node('r', ROOT_PARENT_ID),
      node('x', 'r'),
    ]);
    expect(tree.pathToRoot('c')).toEqual([0, 3]);
    expect(tree.pathToRoot('x')).toEqual([4, 5]);
    expect(tree.pathToRoot(undefined)).toEqual([]);
    expect(tree.parentOf('r')).toBeUndefined();
    expect(tree.isOnPathFrom('c', 'a')).toBe(true);
    expect(tree.isOnPathFrom('c', 'b')).toBe(false);
  });

  it('names an unknown id or a cycle in a typed error', () => {
    const tree = EventTree.from([node('a', 'b'), node('b', 'a')]);
    expect(() => tree.pathToRoot('a')).toThrow(EventTreeError);
    try {
      tree.pathToRoot('a');
    } catch (error) {
      expect(EventTreeError.isInstance(error) && error.reason).toBe('cycle');
    }
    expect(() => tree.pathToRoot('zz')).toThrow(/Unknown event id in the conversation tree: zz/);
  });

  it('stamps the parent of an appended event like the reference', () => {
    expect(parentForAppend('leaf', 3)).toBe('leaf');
    expect(parentForAppend(undefined, 3)).toBe(ROOT_PARENT_ID);
    expect(parentForAppend(undefined, 0)).toBeUndefined();
    const event = withParent(createEvent('PauseEvent', {}), 'p');
    expect(Object.keys(JSON.parse(serializeEvent(event))).slice(0, 4)).toEqual([
      'id',
      'timestamp',
      'source',
      'parent_id',
    ]);
  });
});
