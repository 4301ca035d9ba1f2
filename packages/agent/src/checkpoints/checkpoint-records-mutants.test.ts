// Which checkpoint holds the files at an event: only our own, well-formed records count, a later record for an event
// replaces an earlier one, and an event takes the latest checkpoint at or before it on its branch.
import { type AnyEvent, createEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_KEY, checkpointOnBranch, checkpointRecordOf, checkpointsByEvent } from './checkpoint-records.js';

const id = (digit: string) => digit.repeat(64);
const update = (key: string, value: unknown) => createEvent('ConversationStateUpdateEvent', { key, value });
const record = (checkpoint: string, eventId: string) =>
  update(CHECKPOINT_KEY, { checkpoint_id: checkpoint, event_id: eventId });
const message = (text: string) =>
  createEvent('MessageEvent', { source: 'user', llm_message: { role: 'user', content: [{ type: 'text', text }] } });

describe('checkpointRecordOf', () => {
  it('reads our record, and nothing else shaped like it', () => {
    expect(checkpointRecordOf(record(id('a'), 'e1'))).toEqual({ checkpoint_id: id('a'), event_id: 'e1' });
    expect(checkpointRecordOf(update('other_key', { checkpoint_id: id('a'), event_id: 'e1' }))).toBeUndefined();
    expect(checkpointRecordOf(message('hello'))).toBeUndefined();
    expect(checkpointRecordOf(undefined)).toBeUndefined();
  });

  it('ignores a malformed record, as the fold does', () => {
    expect(checkpointRecordOf(record(id('a'), ''))).toBeUndefined();
    expect(checkpointRecordOf(record('not-a-hash', 'e1'))).toBeUndefined();
    expect(checkpointRecordOf(update(CHECKPOINT_KEY, 'x'))).toBeUndefined();
  });
});

describe('checkpointsByEvent', () => {
  it('maps each event to its latest record, skipping everything else', () => {
    const events: (AnyEvent | undefined)[] = [
      record(id('a'), 'e1'),
      message('between'),
      undefined,
      update('other_key', { checkpoint_id: id('c'), event_id: 'e3' }),
      record(id('0'), 'e2'),
      record(id('d'), 'e1'),
    ];
    expect(checkpointsByEvent(events)).toEqual(
      new Map([
        ['e1', id('d')],
        ['e2', id('0')],
      ]),
    );
  });
});

describe('checkpointOnBranch', () => {
  const branch = [message('root'), message('middle'), message('last')];
  const [root, middle, last] = branch.map((event) => event.id) as [string, string, string];

  it('takes the latest checkpoint at or before the last event', () => {
    const byEvent = new Map([
      [root, id('a')],
      [middle, id('b')],
    ]);
    expect(checkpointOnBranch(branch, byEvent)).toEqual({ checkpoint_id: id('b'), event_id: middle });
    expect(checkpointOnBranch(branch, new Map([...byEvent, [last, id('c')]]))).toEqual({
      checkpoint_id: id('c'),
      event_id: last,
    });
  });

  it('finds a checkpoint at the root, and none on a branch without one', () => {
    expect(checkpointOnBranch(branch, new Map([[root, id('a')]]))).toEqual({ checkpoint_id: id('a'), event_id: root });
    expect(checkpointOnBranch(branch, new Map([['elsewhere', id('a')]]))).toBeUndefined();
    expect(checkpointOnBranch([], new Map())).toBeUndefined();
  });
});
