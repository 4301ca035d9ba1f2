import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { localSegmentLog } from './helpers/damaged-segment.js';
import { messageText } from './helpers/events.js';
import { recordOf } from './helpers/segment-bytes.js';

// `verifyEventChain` on a segment log whose records were changed after they committed (a flipped byte): the segment's
// records stop at the damage, so the event files derived from the lost records have no link. The report names the
// damage (the segment, the bytes, the events it took), as opening the log would, not files "not in the chain".

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

/** A closed segment log of messages m0…m{count-1} in a temp dir. */
const segmentLog = (count: number) => localSegmentLog(count, roots, 'x-verify-segment-damage-');

/** Flips the first letter of `"m<index>"` in the segment (the last copy of it: the record, not an earlier one). */
async function damage(segment: string, index: number): Promise<void> {
  const bytes = await readFile(segment);
  const at = bytes.lastIndexOf(`"m${index}"`);
  bytes[at + 1] = 'X'.charCodeAt(0);
  await writeFile(segment, bytes);
}

/** `store` as one that cannot append to a file (S3): a log there is read file by file, whatever segment it holds. */
function withoutAppend(store: FileStore): FileStore {
  return new Proxy(store, {
    get: (target, property, receiver) =>
      property === 'openAppendFile' ? undefined : (Reflect.get(target, property, receiver) as unknown),
  });
}

async function eventFileId(root: string, index: number): Promise<string | undefined> {
  const prefix = `event-${String(index).padStart(5, '0')}-`;
  const name = (await readdir(join(root, 'events'))).find((file) => file.startsWith(prefix));
  return name?.slice(prefix.length, -'.json'.length);
}

describe('verifyEventChain on a damaged segment', () => {
  it('names damage to the last record, at its index, with the event file derived from it', async () => {
    const { root, store, segment } = await segmentLog(6);
    await damage(segment, 5);

    const report = await verifyEventChain(store);

    expect(report.status).toBe('tampered');
    expect(report.problem).toMatchObject({ kind: 'damaged', index: 5, id: await eventFileId(root, 5) });
    expect(report.problem?.message).toMatch(
      /^Damaged segment .*events\/\.slots\/segment: bytes \d+…\d+ are the log's last record, whole but changed/,
    );
    expect(report.problem?.message).toContain('event 5 is lost from the segment');
    expect(report.problem?.message).not.toContain('not in the chain');
  });

  it('names damage to a record that intact records follow, at the first index it took, and its bytes', async () => {
    const { store, segment } = await segmentLog(6);
    const record = recordOf(await readFile(segment), 'm2');
    await damage(segment, 2);

    const report = await verifyEventChain(store);

    expect(report.problem).toMatchObject({ kind: 'damaged', index: 2 });
    expect(report.problem?.message).toContain(
      `bytes ${record.offset}…${record.end - 1} are not an intact record, yet intact records follow (from event 3)`,
    );
  });

  it('names damage to the only record at index 0', async () => {
    const { root, store, segment } = await segmentLog(1);
    await damage(segment, 0);

    const report = await verifyEventChain(store);

    expect(report.problem).toMatchObject({ kind: 'damaged', index: 0, id: await eventFileId(root, 0) });
    expect(report.problem?.message).toContain('event 0 is lost from the segment');
  });

  it('verifies a segment log whose damaged record a read restored with repair records', async () => {
    const { store, segment } = await segmentLog(6);
    await damage(segment, 2);
    const log = await EventLog.open(store);
    expect(messageText(await log.get(2))).toBe('m2');
    await log.close();
    expect((await readFile(segment)).lastIndexOf('"m2"')).toBeGreaterThan(
      (await readFile(segment)).lastIndexOf('"m5"'),
    );

    const report = await verifyEventChain(store);

    expect(report.problem).toBeUndefined();
    expect(report).toMatchObject({ status: 'verified', length: 6 });
  });

  it('verifies an intact segment log as intact', async () => {
    const { store } = await segmentLog(3);

    const report = await verifyEventChain(store);

    expect(report.status).toBe('verified');
    expect(report.problem).toBeUndefined();
  });

  it('reads a segment log on a store that cannot append as its readers do there: file by file', async () => {
    const { root, store, segment } = await segmentLog(3);
    await damage(segment, 1);

    const onAppendless = await verifyEventChain(withoutAppend(store));
    await rm(segment);

    expect(onAppendless.problem?.kind).not.toBe('damaged');
    expect(onAppendless).toEqual(await verifyEventChain(createLocalFileStore({ root, durability: 'none' })));
  });

  it('names damage to the last record whose event file is gone too, rather than verifying the shorter log', async () => {
    const { root, store, segment } = await segmentLog(6);
    await rm(join(root, 'events', `event-00005-${await eventFileId(root, 5)}.json`));
    await damage(segment, 5);

    const report = await verifyEventChain(store);

    expect(report.status).toBe('tampered');
    expect(report.problem).toMatchObject({ kind: 'damaged', index: 5, id: undefined });
  });
});
