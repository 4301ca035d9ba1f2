import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AnyEvent, isRoundTripSafe, parseEventJson, serializeEvent } from '@x/events';
import { arbitraryEvent, arbitraryOpaqueEventJson } from '@x/events/testing';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isStorableEventId } from '../src/event-log/file-names.js';
import { encodePack, packHeaderOf } from '../src/event-log/pack-format.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { userMessageEvent } from './helpers/events.js';

/**
 * An appender packs a chunk from the bytes its appends encoded (`PackedReads.appended`), not by serializing the
 * events again. Whatever events it appended (created here, parsed from a foreign text that is not canonical,
 * opaque), every pack it writes must be byte for byte the pack of the same events read back from their files.
 */

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

/** Every pack in `store`, as written, beside the pack `encodePack` makes of the events read from the files. */
async function packsAndReference(store: FileStore): Promise<{ written: Buffer; expected: Buffer }[]> {
  const fromFiles = await (await EventLog.open(store, { packs: false })).range(0);
  const paths = await store.list('events/.slots/packs');
  return Promise.all(
    paths.map(async (path) => {
      // The pack is UTF-8 text: its bytes are those of the text read back.
      const written = Buffer.from(await store.read(path), 'utf8');
      const header = packHeaderOf(written);
      if (header === undefined) throw new Error(`${path} is not a usable pack`);
      const { start, names } = header;
      return { written, expected: encodePack({ start, names, events: fromFiles.slice(start, start + names.length) }) };
    }),
  );
}

const storable = arbitraryEvent().filter((event) => isStorableEventId(event.id));
/** An event as an appender may get it: created here, parsed from a spaced (non-canonical) text, or opaque. */
const appendable: fc.Arbitrary<AnyEvent> = fc.oneof(
  storable,
  storable.map((event) => parseEventJson(JSON.stringify(JSON.parse(serializeEvent(event)), null, 1))),
  arbitraryOpaqueEventJson().map((json) => parseEventJson(JSON.stringify({ ...json, id: randomUUID() }))),
);

describe('packs from the appender’s encoded bytes', () => {
  it('are the packs of the events read back, for random logs, appended one by one and in batches', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(appendable, { minLength: 1, maxLength: 14, selector: (event) => event.id }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 14, maxLength: 14 }),
        fc.boolean(),
        async (events, chunkSize, batchSizes, local) => {
          let store: FileStore = createMemoryFileStore();
          if (local) {
            const root = await mkdtemp(join(tmpdir(), 'x-packs-encoded-'));
            roots.push(root);
            store = createLocalFileStore({ root, durability: 'none' });
          }
          const log = await EventLog.open(store, { packs: { chunkSize } });
          for (let at = 0, batch = 0; at < events.length; batch++) {
            const next = events.slice(at, at + batchSizes[batch]!);
            if (next.length === 1) await log.append(next[0]!);
            else await log.appendMany(next);
            at += next.length;
          }
          await log.packsSettled();
          const packs = await packsAndReference(store);
          expect(packs.length).toBe(Math.floor(events.length / chunkSize));
          for (const { written, expected } of packs) expect(written.equals(expected)).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('are the tail pack an appender writes when it reads its own last, incomplete chunk', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(appendable, { minLength: 40, maxLength: 60, selector: (e) => e.id }),
        async (events) => {
          const store = createMemoryFileStore();
          // No cache: the appender's own read of the chunk then goes to the files, and it packs what it read.
          const log = await EventLog.open(store, { cacheSize: 0, packs: { chunkSize: 128 } });
          for (const event of events) await log.append(event);
          await log.range(0);
          await log.packsSettled();
          const packs = await packsAndReference(store);
          expect(packs.length).toBe(1);
          expect(packs[0]!.written.equals(packs[0]!.expected)).toBe(true);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('takes the encoded bytes of events created here (no serialization per event at pack time)', async () => {
    const store = createMemoryFileStore();
    const chunkSize = 64;
    const log = await EventLog.open(store, { packs: { chunkSize } });
    const created = Array.from({ length: chunkSize }, (_, index) => userMessageEvent(`message ${index} — é`));
    expect(created.every(isRoundTripSafe)).toBe(true);
    for (const event of created.slice(0, -1)) await log.append(event);
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      await log.append(created.at(-1)!);
      stringify.mockClear();
      await log.packsSettled();
      // The header alone; serializing the events again would be one call per event.
      expect(stringify.mock.calls.length).toBeLessThan(4);
    } finally {
      stringify.mockRestore();
    }
    const [pack] = await packsAndReference(store);
    expect(pack!.written.equals(pack!.expected)).toBe(true);
  });
});
