import { mkdtemp, readdir, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serializeEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { userMessageEvent } from './helpers/events.js';
import { verifyLog } from './helpers/verify-log.js';

// The slot claim is an append's commit point and holds the whole event, so a store may resolve an append
// before its event file is finished (S3 does: the event object's PutObject runs on, see `claimThenPublish`).
// A writer that dies then leaves its last events in their claims only: nothing acknowledged is lost.

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

async function writtenLog(count: number): Promise<{ root: string; store: FileStore; ids: string[] }> {
  const root = await mkdtemp(join(tmpdir(), 'x-unfinished-'));
  roots.push(root);
  const store = createLocalFileStore({ root, durability: 'none' });
  const log = await EventLog.open(store);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const event = userMessageEvent(`message ${i}`);
    await log.append(event);
    ids.push(event.id);
  }
  await log.close();
  return { root, store, ids };
}

/** What a writer that died with its last `unfinished` event files not written leaves: their claims only. */
async function dropLastFiles(root: string, unfinished: number): Promise<void> {
  const files = (await readdir(join(root, 'events'))).filter((name) => name.startsWith('event-')).sort();
  for (const name of files.slice(-unfinished)) await unlink(join(root, 'events', name));
}

describe('EventLog whose last event files were never finished', () => {
  it('verifies intact before any writer reopens it, checking those events from their claims', async () => {
    const { root, store } = await writtenLog(12);
    await dropLastFiles(root, 3);
    expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: 12, fromClaims: [9, 10, 11] });
  });

  it('still reports an event file removed before the last one whose file exists', async () => {
    const { root, store } = await writtenLog(12);
    const files = (await readdir(join(root, 'events'))).filter((name) => name.startsWith('event-')).sort();
    await unlink(join(root, 'events', files[9]!));
    expect(await verifyEventChain(store)).toMatchObject({ status: 'tampered', problem: { kind: 'removed', index: 9 } });
  });

  it('reopens with every acknowledged event, writes their files from the claims, and appends after them', async () => {
    const { root, store, ids } = await writtenLog(12);
    await dropLastFiles(root, 3);
    const log = await EventLog.open(store);
    expect(log.length).toBe(12);
    expect((await log.range(0)).map((event) => event.id)).toEqual(ids);
    const next = userMessageEvent('after the crash');
    expect(await log.append(next)).toBe(12);
    await log.close();
    await verifyLog(store, new Map([...ids, next.id].map((id, index) => [index, id])));
    expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: 13 });
  });
});

describe('EventLog with a store that finishes event files after the append resolves', () => {
  /** A memory store whose event files are written only once released (or fail then), as S3 defers its PutObject. */
  function deferringStore(outcome: 'write' | 'fail') {
    const memory = createMemoryFileStore();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // No listing versions, as on S3: every append, the first included, goes through writeIfAbsentThenWrite.
    const { listingVersion: _none, ...withoutVersions } = memory;
    const store: FileStore = {
      ...withoutVersions,
      async writeIfAbsentThenWrite(first, then, onCreated, options) {
        if (!(await memory.writeIfAbsent(first.path, first.data))) return false;
        onCreated();
        const rest = gate.then(() =>
          outcome === 'fail' ? Promise.reject(new Error('EIO')) : memory.write(then.path, then.data),
        );
        if (options?.deferThen) options.deferThen(rest);
        else await rest;
        return true;
      },
    };
    return { store, memory, release };
  }

  it('resolves appends before their files exist, serves them meanwhile, and close waits for the files', async () => {
    const { store, memory, release } = deferringStore('write');
    const log = await EventLog.open(store);
    const events = [userMessageEvent('first'), userMessageEvent('second')];
    for (const event of events) await log.append(event);
    expect((await memory.list('events')).filter((path) => path.includes('/event-'))).toEqual([]);
    const reader = await EventLog.open(memory, { rollForward: false });
    expect((await reader.range(0)).map((event) => event.id)).toEqual(events.map((event) => event.id));
    let closed = false;
    const closing = log.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(closed).toBe(false);
    release();
    await closing;
    expect((await memory.list('events')).filter((path) => path.includes('/event-'))).toHaveLength(2);
  });

  it('keeps at most 4 files unfinished: a further append waits for them', async () => {
    const { store, release } = deferringStore('write');
    const log = await EventLog.open(store);
    for (let i = 0; i < 4; i++) await log.append(userMessageEvent(`m${i}`));
    let appended = false;
    const appending = log.append(userMessageEvent('one too many')).then(() => {
      appended = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(appended).toBe(false);
    release();
    await appending;
    expect(log.length).toBe(5);
    await log.close();
  });

  it('warns when a file cannot be finished: the append stays acknowledged, the event kept in its claim', async () => {
    const { store, memory, release } = deferringStore('fail');
    const warnings: string[] = [];
    const log = await EventLog.open(store, { logger: { warn: (message) => warnings.push(message) } });
    const event = userMessageEvent('kept');
    expect(await log.append(event)).toBe(0);
    release();
    await log.close();
    expect(warnings).toEqual([expect.stringContaining('an event file was not finished (EIO)')]);
    const reopened = await EventLog.open(memory);
    expect(serializeEvent(await reopened.get(0))).toBe(serializeEvent(event));
    expect(await memory.exists(`events/event-00000-${event.id}.json`)).toBe(true);
  });
});
