import { describe, expect, it } from 'vitest';
import { createChainLink, formatChainedClaim } from '../src/chain/chain-link.js';
import { CorruptEventError } from '../src/errors/corrupt-event-error.js';
import { eventFileName, slotFileName } from '../src/event-log/file-names.js';
import { readSlotClaim } from '../src/event-log/slot-claims.js';
import { EventLog } from '../src/event-log.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { contractMessageEvent } from '../src/testing/index.js';

// A slot claim is the commit point of an append, and readers fall back to it when an event file is missing or
// unfinished. So it is checked before use: its event id must be one a file name can hold, its chain link must
// name its own event, and a claim is only served for the event file it belongs to.

const slot = (index: number) => `events/.slots/${slotFileName(index)}`;
const file = (index: number, id: string) => `events/${eventFileName(index, id)}`;

async function corrupt(promise: Promise<unknown>): Promise<string> {
  const caught = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(CorruptEventError.isInstance(caught)).toBe(true);
  return (caught as Error).message;
}

describe('slot claim checks', () => {
  it('reads a sound chained claim and its link', async () => {
    const store = createMemoryFileStore();
    const event = contractMessageEvent('ok');
    const json = JSON.stringify(event);
    const link = createChainLink(0, event.id, null, json);
    await store.write(slot(0), formatChainedClaim(link, json));
    expect(await readSlotClaim(store, slot(0))).toMatchObject({ json, event: { id: event.id }, link });
  });

  it('refuses a claim whose chain link names another event', async () => {
    const store = createMemoryFileStore();
    const event = contractMessageEvent('mine');
    const json = JSON.stringify(event);
    await store.write(slot(0), formatChainedClaim(createChainLink(0, 'someone-else', null, json), json));
    expect(await corrupt(readSlotClaim(store, slot(0)))).toContain(
      `its chain link names id 'someone-else' but the event has id '${event.id}'`,
    );
  });

  it('refuses a claim whose event id cannot name a file', async () => {
    const store = createMemoryFileStore();
    const event = { ...contractMessageEvent('bad id'), id: '../escape' };
    await store.write(slot(0), JSON.stringify(event));
    expect(await corrupt(readSlotClaim(store, slot(0)))).toContain("unusable event id '../escape'");
  });

  it('serves a missing event file from its own claim, never from a claim for another event', async () => {
    const store = createMemoryFileStore();
    const writer = await EventLog.open(store);
    const first = contractMessageEvent('first');
    const second = contractMessageEvent('second');
    await writer.append(first);
    await writer.append(second);
    await writer.close();

    // Its own claim: the missing file is read from it.
    const reader = await EventLog.open(store);
    await store.delete(file(1, second.id));
    expect((await reader.get(1)).id).toBe(second.id);

    // A claim that names another event than the file listed at that index is not used in its place.
    const other = await EventLog.open(store);
    await store.delete(file(1, second.id));
    await store.write(slot(1), JSON.stringify(contractMessageEvent('an impostor')));
    await expect(other.get(1)).rejects.toThrow();
  });
});
