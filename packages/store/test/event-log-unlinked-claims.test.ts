import { serializeEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { slotFileName } from '../src/event-log/file-names.js';
import { EventLog } from '../src/event-log.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { messageText, userMessageEvent } from './helpers/events.js';

/**
 * Claims written before the hash chain hold the event's JSON alone, with no chain header. A log holding them (an
 * older x wrote it) reads them as claims: an append a crash left with its claim and no event file is found, and
 * read from the claim, like one with a header.
 */
describe('EventLog: claims without a chain header', () => {
  it('finds an append that has only its claim, and reads the event from it', async () => {
    const store = createMemoryFileStore();
    const writer = await EventLog.open(store);
    await writer.append(userMessageEvent('chained'));
    await writer.close();
    const old = userMessageEvent('claimed before the chain');
    await store.write(`events/.slots/${slotFileName(1)}`, serializeEvent(old));

    const log = await EventLog.open(store);
    expect(log.length).toBe(2);
    const event = await log.get(1);
    expect(event.id).toBe(old.id);
    expect(messageText(event)).toBe('claimed before the chain');
    await log.close();
  });
});
