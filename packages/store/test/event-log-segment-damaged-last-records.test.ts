import { afterEach, describe, expect, it } from 'vitest';
import { DamagedSegmentError } from '../src/errors/damaged-segment-error.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import {
  closedSegmentLog,
  collectWarnings,
  type DamageBackend,
  damageBackends,
  eventFileOf,
  readSegment,
} from './helpers/damaged-segment.js';
import { messageText, userMessageEvent } from './helpers/events.js';
import { recordOf } from './helpers/segment-bytes.js';

// The log's last records damaged one after another, found by an open that scans them (no segment index covers
// them): each whole record the damage left took one acknowledged event, so all of them are recovered from their
// proven event files (the last one's damaged header names the hash they must chain to), or the open is refused
// naming them. Read as a crash's cut-short tail, or as one lost record, they would be dropped silently and the next
// append would take their indices.

const COUNT = 8;
const all = Array.from({ length: COUNT }, (_, index) => `m${index}`);

/** Where the damage goes in each record: a byte of its event's text, or its magic. */
const damages = [
  { what: 'payloads', at: (bytes: Buffer, index: number) => bytes.indexOf(`"m${index}"`) + 2 },
  { what: 'magics', at: (bytes: Buffer, index: number) => recordOf(bytes, `m${index}`).offset },
];

const counts = [
  { many: 2, indices: [6, 7] },
  { many: 3, indices: [5, 6, 7] },
];

/**
 * How the segment was written before the damage: COUNT events in order (nothing after the last records), or with
 * event 1 repaired by a read (moved to the segment's end) before the last events were appended (the repair record
 * before the damaged ones, or between the last 3 and the last 2) or after (the repair record after them: the damaged
 * records are not the segment's last).
 */
const layouts = [
  { name: 'nothing after them', build: (_: DamageBackend, store: FileStore) => closedSegmentLog(store, COUNT) },
  {
    name: 'a repair record before them',
    build: (backend: DamageBackend, store: FileStore) => repaired(backend, store, 5),
  },
  {
    name: 'a repair record among them',
    build: (backend: DamageBackend, store: FileStore) => repaired(backend, store, 6),
  },
  {
    name: 'a repair record after them',
    build: (backend: DamageBackend, store: FileStore) => repaired(backend, store, COUNT),
  },
];

/** A log of `first` events whose event 1 a read repaired, then appended up to COUNT, closed. */
async function repaired(backend: DamageBackend, store: FileStore, first: number): Promise<void> {
  await closedSegmentLog(store, first);
  const bytes = await readSegment(store);
  const log = await EventLog.open(store);
  await backend.damageInPlace(store, bytes.indexOf('"m1"') + 2, 'X'.charCodeAt(0));
  expect(messageText(await log.get(1))).toBe('m1');
  for (let index = first; index < COUNT; index++) await log.append(userMessageEvent(`m${index}`));
  await log.close();
}

describe.each(damageBackends)('consecutive damaged last records ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  /** The log built as `build` says, the records of `indices` damaged at `at`; the span they take. */
  async function damaged(
    build: (backend: DamageBackend, store: FileStore) => Promise<void>,
    indices: readonly number[],
    at = damages[0]!.at,
  ) {
    const store = await backend.make();
    await build(backend, store);
    const bytes = await readSegment(store);
    for (const index of indices) await backend.damageInPlace(store, at(bytes, index), bytes[at(bytes, index)]! ^ 0x20);
    const span = { offset: recordOf(bytes, `m${indices[0]}`).offset, end: recordOf(bytes, `m${indices.at(-1)}`).end };
    return { store, span };
  }

  describe.each(layouts)('with $name', ({ build }) => {
    describe.each(damages)('damaged in their $what', ({ at }) => {
      it.each(counts)('recovers all $many at open, and appends after them', async ({ indices }) => {
        const { store, span } = await damaged(build, indices, at);

        const { warnings, logger } = collectWarnings();
        const log = await EventLog.open(store, { logger });
        expect((await log.range(0)).map(messageText)).toEqual(all);
        expect(warnings).toEqual([
          expect.stringContaining(
            `bytes ${span.offset}…${span.end - 1} are damaged; events ${indices.join(', ')} recovered from their event files`,
          ),
        ]);
        expect(await log.append(userMessageEvent('after'))).toBe(COUNT);
        await log.close();

        const again = collectWarnings();
        const reopened = await EventLog.open(store, { logger: again.logger });
        expect((await reopened.range(0)).map(messageText)).toEqual([...all, 'after']);
        expect(await reopened.verifyChain()).toMatchObject({ status: 'verified', length: COUNT + 1 });
        expect(again.warnings).toEqual([]);
        await reopened.close();
      });
    });

    it.each(counts)('holds all $many in memory in a reader that does not write', async ({ indices }) => {
      const { store } = await damaged(build, indices);
      const before = await readSegment(store);

      const { warnings, logger } = collectWarnings();
      const reader = await EventLog.open(store, { logger, rollForward: false });
      expect((await reader.range(0)).map(messageText)).toEqual(all);
      expect(warnings).toEqual([
        expect.stringMatching(new RegExp(`events ${indices.join(', ')} recovered .*kept in memory`)),
      ]);
      expect((await readSegment(store)).equals(before)).toBe(true);
      await reader.close();
    });

    it.each(
      counts.flatMap(({ many, indices }) => [
        { many, indices, lost: indices[0]!, which: 'first' },
        { many, indices, lost: indices.at(-1)!, which: 'last' },
      ]),
    )('refuses all $many, naming them, when the $which event file is gone', async ({ many, indices, lost }) => {
      const { store, span } = await damaged(build, indices);
      await store.delete(await eventFileOf(store, lost));

      const error = await EventLog.open(store).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DamagedSegmentError);
      expect(error).toMatchObject({ ...span, missingIndex: indices[0], unrecovered: [lost] });
      expect((error as Error).message).toContain(`the log's last ${many} records, whole but changed`);
      expect((error as Error).message).toContain(`events ${indices[0]}…${indices.at(-1)} are lost from the segment`);

      const prefix = await EventLog.open(store, { damagedSegment: 'read-intact-prefix' });
      expect((await prefix.range(0)).map(messageText)).toEqual(all.slice(0, indices[0]));
      await expect(prefix.append(userMessageEvent('after'))).rejects.toMatchObject({ code: 'read_only_log' });
      await prefix.close();
    });
  });

  it.each(counts)('refuses all $many when the last header no longer says what it held', async ({ indices }) => {
    const { store, span } = await damaged(layouts[0]!.build, indices.slice(0, -1));
    const bytes = await readSegment(store);
    const header = bytes.lastIndexOf('{"chain":1,');
    await backend.damageInPlace(store, header + 2, 'X'.charCodeAt(0));

    const error = await EventLog.open(store).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DamagedSegmentError);
    expect(error).toMatchObject({ offset: span.offset, missingIndex: indices[0], unrecovered: indices });
  });
});
