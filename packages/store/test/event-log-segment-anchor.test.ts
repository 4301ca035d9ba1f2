import { mkdtemp, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { EventLog } from '../src/event-log.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { userMessageEvent } from './helpers/events.js';

// A segment log's first append anchors its chain (src/event-log/segment/segment-layout.ts), so records stripped
// from its segment later are reported (before any close wrote a head record), not taken for a log written before chains: also when it has one event.

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

describe('EventLog segment layout: the chain anchor', () => {
  it.each([1, 2])('reports the records of a %i-event segment log stripped from its segment', async (count) => {
    const root = await mkdtemp(join(tmpdir(), 'x-segment-anchor-'));
    roots.push(root);
    const store = createLocalFileStore({ root, durability: 'none' });
    const log = await EventLog.open(store, { layout: 'segment' });
    for (let index = 0; index < count; index++) await log.append(userMessageEvent(`event ${index}`));
    // Not closed (a process that died): no head record covers the events, only the anchor and their records.
    expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: count });
    await truncate(join(root, 'events/.slots/segment'), 0);
    expect(await verifyEventChain(store)).toMatchObject({ status: 'tampered' });
    await log.close();
  });
});
