import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AnyEvent, isRoundTripSafe, serializeEvent } from '@x/events';
import { arbitraryEvent, arbitraryOpaqueEventJson } from '@x/events/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventFileName, isStorableEventId, parseEventFileName } from '../src/event-log/file-names.js';
import { packThresholds } from '../src/event-log/packs.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { countingStore } from './helpers/counting-store.js';

/**
 * Packs never change what a read returns: for every fixture conversation (the reference's, as copied into
 * this package and `@x/events`, and the events package's appendix samples) and for random logs, an event
 * read from a pack deep-equals the one read from its file, serializes to the same bytes, and is frozen and
 * round-trip safe exactly when the file-read one is.
 */

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
const eventsFixtures = here('../../events/test/__fixtures__/');

/** Every fixture conversation's `events/` directory: name → its files' names and texts, in index order. */
async function fixtureLogs(): Promise<Map<string, { name: string; text: string }[]>> {
  const dirs = [
    here('./__fixtures__/openhands/'),
    join(eventsFixtures, 'openhands/'),
    join(eventsFixtures, 'branched/'),
  ];
  const label = (dir: string): string => (dir.includes('/events/test/') ? '@x/events ' : '@x/store ');
  const logs = new Map<string, { name: string; text: string }[]>();
  for (const dir of dirs) {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const eventsDir = join(dir, entry.name, 'events');
      const names = (await readdir(eventsDir)).filter((name) => parseEventFileName(name) !== undefined);
      names.sort((a, b) => parseEventFileName(a)!.index - parseEventFileName(b)!.index);
      const files = await Promise.all(
        names.map(async (name) => ({ name, text: await readFile(join(eventsDir, name), 'utf8') })),
      );
      logs.set(`${label(dir)}${dir.split('__fixtures__/')[1]}${entry.name}`, files);
    }
  }
  // The appendix samples, one event per file, as one log.
  const appendix = join(eventsFixtures, 'appendix');
  const samples = (await readdir(appendix)).filter((name) => name.endsWith('.json')).sort();
  const texts = await Promise.all(samples.map((name) => readFile(join(appendix, name), 'utf8')));
  logs.set(
    'appendix samples',
    texts.map((text, index) => ({ name: eventFileName(index, (JSON.parse(text) as { id: string }).id), text })),
  );
  return logs;
}

/** A store holding `files` as a foreign writer (the reference) leaves them: event files, no claims. */
async function foreignLog(files: readonly { name: string; text: string }[]): Promise<FileStore> {
  const store = createMemoryFileStore();
  for (const { name, text } of files) await store.write(`events/${name}`, text);
  return store;
}

/**
 * Reads the log in `store` from files (packs off), then through packs written by a reader of the files,
 * and checks that both give the same events and that the second read came from the packs alone.
 */
async function expectPackedReadsEqual(store: FileStore, chunkSize: number): Promise<void> {
  const fromFiles = await (await EventLog.open(store, { packs: false })).range(0);
  const writer = await EventLog.open(store, { packs: { chunkSize } });
  await writer.range(0);
  await writer.packsSettled();
  const counting = countingStore(store);
  const reader = await EventLog.open(counting.store, { packs: { chunkSize } });
  counting.reset();
  const fromPacks = await reader.range(0);
  expect(counting.counts.read).toBe(expectedReads(fromFiles.length, chunkSize, true));
  expectSameEvents(fromPacks, fromFiles);
}

/**
 * Reads of a fresh reader of `count` events once packs are written: one per complete chunk; for the last,
 * incomplete chunk one when a reader packed it (`tailPacked`, once it has `tailStep` events), else its files
 * (after one read that finds no pack, when there are enough of them to look).
 */
function expectedReads(count: number, chunkSize: number, tailPacked: boolean): number {
  const { minRead, tailStep } = packThresholds(chunkSize);
  const full = Math.floor(count / chunkSize);
  const rest = count % chunkSize;
  if (rest === 0) return full;
  if (tailPacked && rest >= tailStep) return full + 1;
  return full + (rest >= minRead ? 1 : 0) + rest;
}

function expectSameEvents(actual: readonly AnyEvent[], expected: readonly AnyEvent[]): void {
  expect(actual).toEqual(expected);
  expect(actual.map(serializeEvent)).toEqual(expected.map(serializeEvent));
  expect(actual.map(isRoundTripSafe)).toEqual(expected.map(isRoundTripSafe));
  expect(actual.every((event) => Object.isFrozen(event))).toBe(true);
}

describe('packed reads equal file reads', async () => {
  const logs = await fixtureLogs();

  it('has the fixtures', () => {
    expect(logs.size).toBeGreaterThanOrEqual(8);
  });

  for (const [name, files] of logs) {
    for (const chunkSize of [1, 3]) {
      it(`${name}, chunks of ${chunkSize}`, async () => {
        await expectPackedReadsEqual(await foreignLog(files), chunkSize);
      });
    }
  }

  const storable = arbitraryEvent().filter((event) => isStorableEventId(event.id));
  /** A random foreign file: an event as we write it, or an unknown kind, compact or spaced like Python's json.dumps. */
  const foreignText = fc.oneof(
    storable.map((event) => ({ id: event.id, text: serializeEvent(event) })),
    fc.record({ json: arbitraryOpaqueEventJson(), spaced: fc.boolean() }).map(({ json, spaced }) => {
      const id = randomUUID();
      return { id, text: JSON.stringify({ ...json, id }, null, spaced ? 1 : undefined) };
    }),
    storable.map((event) => ({ id: event.id, text: JSON.stringify(JSON.parse(serializeEvent(event)), null, 1) })),
  );

  it('random logs written by foreign writers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(foreignText, { maxLength: 14, selector: (file) => file.id }),
        fc.integer({ min: 1, max: 4 }),
        async (files, chunkSize) => {
          const store = await foreignLog(
            files.map(({ id, text }, index) => ({ name: eventFileName(index, id), text })),
          );
          await expectPackedReadsEqual(store, chunkSize);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('random logs written by appends (packed by the appender)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(storable, { maxLength: 14, selector: (event) => event.id }),
        fc.integer({ min: 1, max: 4 }),
        async (events, chunkSize) => {
          const store = createMemoryFileStore();
          const log = await EventLog.open(store, { packs: { chunkSize } });
          for (const event of events) await log.append(event);
          await log.packsSettled();
          const fromFiles = await (await EventLog.open(store, { packs: false })).range(0);
          const counting = countingStore(store);
          const reader = await EventLog.open(counting.store, { packs: { chunkSize } });
          counting.reset();
          expectSameEvents(await reader.range(0), fromFiles);
          expect(counting.counts.read).toBe(expectedReads(events.length, chunkSize, false));
        },
      ),
      { numRuns: 40 },
    );
  });
});
