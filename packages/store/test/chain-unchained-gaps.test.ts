import { serializeEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { eventFileName } from '../src/event-log/file-names.js';
import type { FileStore } from '../src/file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { userMessageEvent } from './helpers/events.js';

// A log with no chain (written by the reference, or before chaining) has no links to check, but a hole in its
// indices is still an event removed: every reader stops at it. `verify` reported such a log as merely unchained,
// with the highest index as its length (a file renamed to event-99999 made it "100000 events").

/** Event files at `indices`, written as the reference writes them (no claims, no chain). */
async function referenceLog(indices: readonly number[]): Promise<FileStore> {
  const store = createMemoryFileStore();
  for (const index of indices) {
    const event = userMessageEvent(`event ${index}`);
    await store.write(`events/${eventFileName(index, event.id)}`, serializeEvent(event));
  }
  return store;
}

describe('verifying an unchained log', () => {
  it('is unchained, not tampered, when its indices have no hole', async () => {
    const report = await verifyEventChain(await referenceLog([0, 1, 2, 3]));
    expect(report).toMatchObject({ status: 'unchained', length: 4, problem: undefined });
  });

  it('names the first missing index as removed, and how many events it hides', async () => {
    const report = await verifyEventChain(await referenceLog([0, 1, 3, 4, 6]));
    expect(report.status).toBe('tampered');
    expect(report.problem).toEqual({
      kind: 'removed',
      index: 2,
      id: undefined,
      message: 'event 2 is missing (no event file): the 4 after it are not read',
    });
  });

  it('catches a file renamed far past the end (a hole up to it)', async () => {
    const report = await verifyEventChain(await referenceLog([0, 1, 99_999]));
    expect(report.status).toBe('tampered');
    expect(report.problem).toMatchObject({ kind: 'removed', index: 2 });
  });

  it('catches a missing first event', async () => {
    const report = await verifyEventChain(await referenceLog([1, 2]));
    expect(report.problem).toMatchObject({ kind: 'removed', index: 0 });
  });
});
