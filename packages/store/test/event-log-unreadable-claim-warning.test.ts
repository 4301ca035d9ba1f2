import { describe, expect, it } from 'vitest';
import { EventLog } from '../src/event-log.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { userMessageEvent } from './helpers/events.js';

// A slot claim that cannot be read ends the log there for readers (see `probeSlotClaim`), and a subscription
// polls that slot every interval: the warning names where the log stops, and comes once, not once per poll.

function recorder(): { logger: { warn(message: string): void }; warnings: string[] } {
  const warnings: string[] = [];
  return { logger: { warn: (message) => warnings.push(message) }, warnings };
}

describe('EventLog with an unreadable slot claim after its events', () => {
  it('warns once where the log stops, however often it looks again', async () => {
    const store = createMemoryFileStore();
    const writer = await EventLog.open(store);
    await writer.append(userMessageEvent('first'));
    await writer.append(userMessageEvent('second'));
    await store.write('events/.slots/00002.json', '{"kind":"MessageEv');
    const { logger, warnings } = recorder();
    const reader = await EventLog.open(store, { logger });
    expect(reader.length).toBe(2);
    expect(await reader.refresh()).toBe(0);
    expect(await reader.refresh()).toBe(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('events/.slots/00002.json');
    expect(warnings[0]).toContain('the log is read up to index 1');
  });

  it('warns once when the very first claim is unreadable', async () => {
    const store = createMemoryFileStore();
    await store.write('events/.slots/00000.json', 'not an event');
    const { logger, warnings } = recorder();
    const reader = await EventLog.open(store, { logger });
    expect(reader.length).toBe(0);
    expect(await reader.refresh()).toBe(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('events/.slots/00000.json');
  });
});
