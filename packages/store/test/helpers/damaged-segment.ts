import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { EventLog } from '../../src/event-log.js';
import type { FileStore } from '../../src/file-store.js';
import { createLocalFileStore } from '../../src/local-file-store.js';
import { createMemoryFileStore } from '../../src/memory-file-store.js';
import { userMessageEvent } from './events.js';
import { lastRecordStart } from './segment-bytes.js';

/** The segment of the log in `events/`, as a store path. */
export const SEGMENT = 'events/.slots/segment';

/** A backend a segment log's damage is tested on: the local store in a temp dir, or the memory store. */
export interface DamageBackend {
  readonly name: string;
  make(): Promise<FileStore>;
  /** Removes what `make` created. */
  cleanUp(): Promise<void>;
  /** Changes the segment's byte at `offset` in place, as a disk's damage does (a writer's open descriptor sees it). */
  damageInPlace(store: FileStore, offset: number, byte: number): Promise<void>;
}

const roots: string[] = [];
const rootOf = new WeakMap<FileStore, string>();

export const damageBackends: DamageBackend[] = [
  {
    name: 'local store',
    async make() {
      const root = await mkdtemp(join(tmpdir(), 'x-segment-recovery-'));
      roots.push(root);
      const store = createLocalFileStore({ root, durability: 'none' });
      rootOf.set(store, root);
      return store;
    },
    async cleanUp() {
      for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
    },
    async damageInPlace(store, offset, byte) {
      const handle = await open(join(rootOf.get(store)!, SEGMENT), 'r+');
      try {
        await handle.write(Buffer.from([byte]), 0, 1, offset);
      } finally {
        await handle.close();
      }
    },
  },
  {
    name: 'memory store',
    make: async () => createMemoryFileStore(),
    cleanUp: async () => undefined,
    // The memory store's append files read its map on every call: a write of the path is what they see next.
    async damageInPlace(store, offset, byte) {
      const bytes = await readSegment(store);
      bytes[offset] = byte;
      await store.write(SEGMENT, bytes);
    },
  },
];

/** A closed segment log of messages m0…m{count-1}. */
export async function closedSegmentLog(store: FileStore, count: number): Promise<void> {
  const log = await EventLog.open(store, { layout: 'segment' });
  for (let index = 0; index < count; index++) await log.append(userMessageEvent(`m${index}`));
  await log.close();
}

/** The segment's exact bytes (read through the store's append file: `read` decodes text, which the magic is not). */
export async function readSegment(store: FileStore): Promise<Buffer> {
  const file = await store.openAppendFile!(SEGMENT);
  try {
    return Buffer.from(await file.readFrom(0));
  } finally {
    await file.close();
  }
}

/** Changes one byte of the segment: the second character of the first (or last) `"text"` in it. */
export async function flipByteOf(store: FileStore, text: string, which: 'first' | 'last' = 'first'): Promise<Buffer> {
  const bytes = await readSegment(store);
  const at = which === 'first' ? bytes.indexOf(`"${text}"`) : bytes.lastIndexOf(`"${text}"`);
  if (at === -1) throw new Error(`"${text}" is not in the segment`);
  bytes[at + 2] = 'X'.charCodeAt(0);
  await store.write(SEGMENT, bytes);
  return bytes;
}

/** The store path of the event file of `index` (the reference's `event-{index}-{id}.json`). */
export async function eventFileOf(store: FileStore, index: number): Promise<string> {
  const prefix = `events/event-${String(index).padStart(5, '0')}-`;
  const path = (await store.list('events')).find((name) => name.startsWith(prefix));
  if (path === undefined) throw new Error(`no event file for index ${index}`);
  return path;
}

/** A logger that keeps what it is told to warn about. */
export function collectWarnings(): { warnings: string[]; logger: { warn(message: string): void } } {
  const warnings: string[] = [];
  return { warnings, logger: { warn: (message) => warnings.push(message) } };
}

/**
 * m0…m4 (m3 and m4 by one writer), then `late` at 3 by another writer that had not seen them (its lost race), the
 * segment's last record: that writer crashed before writing again (its event file and chain head gone too). The
 * segment's bytes as that leaves them, without the lost race's retry.
 */
export async function lostRaceAfterTwo(store: FileStore): Promise<Buffer> {
  const bytes = await twoThenLostRace(store);
  await store.delete(await eventFileOf(store, 5));
  await store.delete('events/.chain/head-00006.json');
  return bytes.subarray(0, lastRecordStart(bytes));
}

/** m0…m4 (m3 and m4 by one writer), `late` at 3 by another (its lost race), then `late` again at 5: the segment. */
export async function twoThenLostRace(store: FileStore): Promise<Buffer> {
  await closedSegmentLog(store, 3);
  const first = await EventLog.open(store);
  const second = await EventLog.open(store);
  expect(await first.append(userMessageEvent('m3'))).toBe(3);
  expect(await first.append(userMessageEvent('m4'))).toBe(4);
  expect(await second.append(userMessageEvent('late'))).toBe(5);
  await first.close();
  await second.close();
  return readSegment(store);
}

/**
 * A closed segment log of messages m0…m{count-1} on the local store, in a new temp dir named from `prefix`, pushed on
 * `roots` for the caller to remove.
 */
export async function localSegmentLog(
  count: number,
  roots: string[],
  prefix: string,
): Promise<{ root: string; store: FileStore; segment: string }> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  roots.push(root);
  const store = createLocalFileStore({ root, durability: 'none' });
  const log = await EventLog.open(store, { layout: 'segment' });
  for (let index = 0; index < count; index++) await log.append(userMessageEvent(`m${index}`));
  await log.close();
  return { root, store, segment: join(root, SEGMENT) };
}
