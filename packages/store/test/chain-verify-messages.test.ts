import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { computeChainHash } from '../src/chain/chain-link.js';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { StoreError } from '../src/errors.js';
import { eventFileName, slotFileName } from '../src/event-log/file-names.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { userMessageEvent } from './helpers/events.js';

/**
 * The problem `verifyEventChain` reports, message included, for the cases the tamper suites check by kind and
 * index only: a removed slot claim where the anchor says the chain covers it, links stripped from a log without an
 * anchor, and an event file that cannot be read. The message is what a user reads to find the file.
 */

const slotPath = (index: number) => `events/.slots/${slotFileName(index)}`;
const ANCHOR = 'events/.chain/anchor.json';

async function chainedLog(count: number): Promise<{ store: FileStore; ids: string[] }> {
  const store = createMemoryFileStore();
  const log = await EventLog.open(store);
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const event = userMessageEvent(`message ${index}`);
    await log.append(event);
    ids.push(event.id);
  }
  await log.close();
  return { store, ids };
}

describe('verifyEventChain problem messages', () => {
  it('a slot claim removed where the anchor says the chain starts: its event has no link, or is gone too', async () => {
    const { store, ids } = await chainedLog(3);
    await store.delete(slotPath(0));
    expect((await verifyEventChain(store)).problem).toEqual({
      kind: 'removed',
      index: 0,
      id: ids[0],
      message: `event 0 (${ids[0]}) has no chain link, but the log is chained from index 0 (${store.describe(ANCHOR)}): its slot claim was removed`,
    });
    await store.delete(`events/${eventFileName(0, ids[0]!)}`);
    const report = await verifyEventChain(store);
    expect(report.problem?.message).toBe(
      `event 0 is missing (no event file and no claim), but the log is chained from index 0 (${store.describe(ANCHOR)}): its slot claim was removed`,
    );
  });

  it('links stripped from the start of a log without an anchor: where the chain really started', async () => {
    const one = await chainedLog(4);
    await one.store.delete(ANCHOR);
    await one.store.delete(slotPath(0));
    expect((await verifyEventChain(one.store)).problem).toEqual({
      kind: 'removed',
      index: 0,
      id: one.ids[0],
      message: "event 0's chain link is missing: event 1 chains to it",
    });
    const two = await chainedLog(4);
    await two.store.delete(ANCHOR);
    await two.store.delete(slotPath(0));
    await two.store.delete(slotPath(1));
    expect((await verifyEventChain(two.store)).problem).toEqual({
      kind: 'removed',
      index: 0,
      id: two.ids[0],
      message: 'the chain links of events 0…1 are missing: event 2 chains to a chain that starts at 0',
    });
  });

  it('an event file that cannot be read is reported at its index, not thrown', async () => {
    const { store: inner, ids } = await chainedLog(3);
    const store = Object.create(inner) as FileStore;
    store.readBatch = undefined;
    store.read = async (path) => {
      if (path.endsWith(eventFileName(1, ids[1]!))) throw new StoreError('store_backend', 'disk on fire');
      return inner.read(path);
    };
    expect(await verifyEventChain(store)).toMatchObject({
      status: 'tampered',
      problem: { kind: 'removed', index: 1, id: ids[1], message: `event 1 (${ids[1]}) cannot be read` },
    });
  });

  it("a live log's last event rewritten with a link on a forged prev: the writer's own head blames that event", async () => {
    // No head record yet (the writer has not closed): what the writer knows of its last link is the only witness
    // that tells a forged last link from a replaced event before it.
    const store = createMemoryFileStore();
    const log = await EventLog.open(store);
    const ids: string[] = [];
    for (let index = 0; index < 3; index++) {
      const event = userMessageEvent(`message ${index}`);
      await log.append(event);
      ids.push(event.id);
    }
    const path = `events/${eventFileName(2, ids[2]!)}`;
    const forged = (await store.read(path)).replace('message 2', 'massage 2');
    const claim = await store.read(slotPath(2));
    const link = JSON.parse(claim.slice(0, claim.indexOf('\n'))) as { prev: string | null; hash: string };
    link.prev = createHash('sha256')
      .update(await store.read(`events/${eventFileName(1, ids[1]!)}`))
      .digest('hex');
    link.hash = computeChainHash(2, link.prev, forged);
    await store.write(slotPath(2), `${JSON.stringify(link)}\n${forged}`);
    await store.write(path, forged);
    expect((await log.verifyChain()).problem).toEqual({
      kind: 'altered',
      index: 2,
      id: ids[2],
      message: `event 2 (${ids[2]}) has a forged chain link: it chains to a hash event 1 does not have`,
    });
    await log.close();
  });

  it("a live log's last event rewritten with a link on a forged prev, checked with no head: that event is named", async () => {
    // Nothing after the event and no head record tells a forged last link from a replaced event before it: the
    // link that does not hold is the last event's, so it is named, with both readings (as the PostgreSQL log does).
    const store = createMemoryFileStore();
    const log = await EventLog.open(store);
    const ids: string[] = [];
    for (let index = 0; index < 3; index++) {
      const event = userMessageEvent(`message ${index}`);
      await log.append(event);
      ids.push(event.id);
    }
    const path = `events/${eventFileName(2, ids[2]!)}`;
    const forged = (await store.read(path)).replace('message 2', 'massage 2');
    const claim = await store.read(slotPath(2));
    const link = JSON.parse(claim.slice(0, claim.indexOf('\n'))) as { prev: string | null; hash: string };
    link.prev = createHash('sha256').update('another event 1').digest('hex');
    link.hash = computeChainHash(2, link.prev, forged);
    await store.write(slotPath(2), `${JSON.stringify(link)}\n${forged}`);
    await store.write(path, forged);
    expect((await verifyEventChain(store)).problem).toEqual({
      kind: 'altered',
      index: 2,
      id: ids[2],
      message: `event 2 (${ids[2]}) chains to a hash event 1 does not have (its own link was forged, or event 1 was replaced: no later event or head tells which)`,
    });
    await log.close();
  });

  it('an empty event file whose claim was altered too: altered, not taken for a file a power loss left unfinished', async () => {
    const { store, ids } = await chainedLog(3);
    const claim = await store.read(slotPath(1));
    await store.write(slotPath(1), claim.replace('message 1', 'massage 1'));
    await store.write(`events/${eventFileName(1, ids[1]!)}`, '');
    expect(await verifyEventChain(store)).toMatchObject({
      status: 'tampered',
      problem: {
        kind: 'altered',
        index: 1,
        id: ids[1],
        message: `event 1 (${ids[1]}) does not match its chain link (its bytes were changed)`,
      },
    });
    // With the claim intact, the same empty file is one a power loss left: checked from the claim.
    await store.write(slotPath(1), claim);
    expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', fromClaims: [1] });
  });
});
