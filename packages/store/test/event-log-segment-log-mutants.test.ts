import { mkdtemp, rm, stat, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { eventFileName } from '../src/event-log/file-names.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { messageText, userMessageEvent } from './helpers/events.js';

// A segment log (src/event-log/segment/segment-log.ts) after `close`: it stays usable, reopening its segment, and
// the head record its close wrote catches the log cut short afterwards.

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

async function localStore(): Promise<{ root: string; store: FileStore }> {
  const root = await mkdtemp(join(tmpdir(), 'x-segment-log-'));
  roots.push(root);
  return { root, store: createLocalFileStore({ root, durability: 'none' }) };
}

describe('a segment log after close', () => {
  it('appends and reads again, on a segment it reopens', async () => {
    const { store } = await localStore();
    const log = await EventLog.open(store, { layout: 'segment' });
    await log.append(userMessageEvent('before close'));
    await log.close();
    expect(await log.append(userMessageEvent('after close'))).toBe(1);
    await log.close();

    const reader = await EventLog.open(store);
    expect(messageText(await reader.get(0))).toBe('before close');
    await reader.close();
    // Not read before the close: read from the segment, which the closed reader opens again.
    expect(messageText(await reader.get(1))).toBe('after close');
    await reader.close();
  });

  it('has recorded its head, so its last event stripped later is reported', async () => {
    const { root, store } = await localStore();
    const log = await EventLog.open(store, { layout: 'segment' });
    const first = userMessageEvent('first');
    const second = userMessageEvent('second');
    await log.append(first);
    const segment = join(root, 'events/.slots/segment');
    const oneEvent = (await stat(segment)).size;
    await log.append(second);
    await log.close();
    expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: 2 });
    // The second event taken out whole: its record and its derived event file.
    await truncate(segment, oneEvent);
    await store.delete(`events/${eventFileName(1, second.id)}`);
    expect(await verifyEventChain(store)).toMatchObject({ status: 'tampered' });
  });
});
