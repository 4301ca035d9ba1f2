import { describe, expect, it } from 'vitest';
import { eventFileName, slotFileName } from '../src/event-log/file-names.js';
import { EventLog } from '../src/event-log.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { userMessageEvent } from './helpers/events.js';

// A log cut short under an open writer: the head it knows (its length) says how many events are gone, in the
// message a user reads, even for a log of one event.

async function openLogCutTo(count: number, keep: number) {
  const store = createMemoryFileStore();
  const log = await EventLog.open(store);
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const event = userMessageEvent(`message ${index}`);
    await log.append(event);
    ids.push(event.id);
  }
  for (let index = keep; index < count; index++) {
    await store.delete(`events/${eventFileName(index, ids[index]!)}`);
    await store.delete(`events/.slots/${slotFileName(index)}`);
  }
  return log;
}

describe('a chain cut short under the open log', () => {
  it.each([
    [3, 2, 'event 2 is gone: the log had 3 events (the open log) and was cut short'],
    [3, 1, 'events 1…2 are gone: the log had 3 events (the open log) and was cut short'],
    [1, 0, 'event 0 is gone: the log had 1 event (the open log) and was cut short'],
  ])('of %i events to %i names what is gone', async (count, keep, message) => {
    const log = await openLogCutTo(count, keep);
    expect((await log.verifyChain()).problem).toEqual({ kind: 'removed', index: keep, id: undefined, message });
    await log.close();
  });
});
