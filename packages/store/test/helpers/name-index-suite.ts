import { type AnyEvent, serializeEvent } from '@x/events';
import { describe, expect, it, vi } from 'vitest';
import { eventFileName } from '../../src/event-log/file-names.js';
import { nameIndexPath } from '../../src/event-log/name-index.js';
import { EventLog } from '../../src/event-log.js';
import type { FileStore } from '../../src/file-store.js';
import { userMessageEvent } from './events.js';

/** Long enough for an index (1024 events and more). */
const SEED = 1030;
const DIR = 'conv/events';

export interface NameIndexBackend {
  /**
   * A fresh, empty store; `cleanup` runs after the test. `writeLog`, when given, writes a log's files
   * (each event's claim and its event file, as the local store's append leaves them) faster than appends.
   */
  make(): Promise<{
    store: FileStore;
    cleanup?: () => Promise<void>;
    writeLog?: (dir: string, events: readonly AnyEvent[]) => Promise<void>;
  }>;
}

/** Counts the listings made through `store` (the object is spied on, not wrapped). */
function spyListings(store: FileStore): { count(): number } {
  const list = vi.spyOn(store, 'list');
  const unordered = store.listUnordered === undefined ? undefined : vi.spyOn(store, 'listUnordered');
  return { count: () => list.mock.calls.length + (unordered?.mock.calls.length ?? 0) };
}

/** The same store without `listingVersion`: opens always list (the reference behaviour, for comparison). */
function withoutVersions(store: FileStore): FileStore {
  return { ...store, listingVersion: undefined };
}

function warnings(): { logger: { warn(message: string): void }; messages: string[] } {
  const messages: string[] = [];
  return { logger: { warn: (message) => messages.push(message) }, messages };
}

/** The events of every seeded log (parsing them is most of a seed's cost): made once. */
let seedEvents: AnyEvent[] | undefined;

/** A log of `count` events whose name index is written (by appends, or by its files then an open and close). */
async function seed(
  store: FileStore,
  count = SEED,
  writeLog?: (dir: string, events: readonly AnyEvent[]) => Promise<void>,
): Promise<void> {
  seedEvents ??= Array.from({ length: SEED }, (_, index) => userMessageEvent(`event ${index}`));
  const events = seedEvents.slice(0, count);
  if (writeLog !== undefined) await writeLog(DIR, events);
  const log = await EventLog.open(store, { dir: DIR });
  if (writeLog === undefined) for (const event of events) await log.append(event);
  await log.close();
}

async function ids(log: EventLog): Promise<string[]> {
  return Array.from({ length: log.length }, (_, index) => log.idAt(index));
}

/** What a plain listing open sees: the ground truth every index open must equal. */
async function listed(store: FileStore): Promise<string[]> {
  return ids(await EventLog.open(withoutVersions(store), { dir: DIR }));
}

/**
 * The name index (`<dir>/.slots/name-index`): an open of an unchanged long log lists nothing, and any
 * change, damage or crash makes it list as before. Run on every store with `listingVersion`.
 */
export function describeNameIndex(name: string, backend: NameIndexBackend): void {
  describe(`EventLog name index: ${name}`, () => {
    type Seed = (count?: number) => Promise<void>;
    const withStore =
      (test: (store: FileStore, seedLog: Seed) => Promise<void>, byAppends = false) =>
      async () => {
        const { store, cleanup, writeLog } = await backend.make();
        try {
          await test(store, (count = SEED) => seed(store, count, byAppends ? undefined : writeLog));
        } finally {
          await cleanup?.();
        }
      };

    it(
      'opens an unchanged log from its index without listing, to the same paths, ids and events',
      withStore(async (store, seedLog) => {
        await seedLog();
        expect(await store.exists(nameIndexPath(DIR))).toBe(true);
        const plain = await EventLog.open(withoutVersions(store), { dir: DIR });
        const truth = await ids(plain);
        const spy = spyListings(store);
        const log = await EventLog.open(store, { dir: DIR });
        expect(spy.count()).toBe(0);
        expect(await ids(log)).toEqual(truth);
        expect(log.indexOf(truth[700]!)).toBe(700);
        expect(await log.range(-3)).toEqual(await plain.range(-3));
        expect(await log.get(0)).toEqual(await plain.get(0));
        // The log goes on as usual: appends, and a relist still lists.
        expect(await log.append(userMessageEvent('after'))).toBe(SEED);
        await log.refresh({ relist: true });
        expect(spy.count()).toBe(1);
        await log.close();
      }),
    );

    it(
      'writes the index at close of a log this instance made by its appends',
      withStore(async (store, seedLog) => {
        await seedLog();
        expect(await store.exists(nameIndexPath(DIR))).toBe(true);
        const spy = spyListings(store);
        const log = await EventLog.open(store, { dir: DIR });
        expect(spy.count()).toBe(0);
        expect(await ids(log)).toEqual(await listed(store));
        expect((await log.verifyChain()).status).toBe('verified');
      }, true),
    );

    it(
      'sees an event file a foreign writer added after close, and writes a current index again',
      withStore(async (store, seedLog) => {
        await seedLog();
        // As the reference writes: the event file alone, no claim.
        const foreign = userMessageEvent('from the reference');
        await store.write(`${DIR}/${eventFileName(SEED, foreign.id)}`, serializeEvent(foreign));
        const spy = spyListings(store);
        const log = await EventLog.open(store, { dir: DIR });
        expect(spy.count()).toBe(1);
        expect(log.length).toBe(SEED + 1);
        expect(await log.get(SEED)).toEqual(foreign);
        await log.close(); // waits for the index written after the listing open
        const again = await EventLog.open(store, { dir: DIR });
        expect(spy.count()).toBe(1);
        expect(await ids(again)).toEqual(await ids(log));
      }),
    );

    it(
      'opens from its index after the first appends to a log written without a chain (its anchor moved the version)',
      withStore(async (store, seedLog) => {
        await seedLog();
        const log = await EventLog.open(store, { dir: DIR });
        // The first append to an unchained log writes the chain's anchor (`.chain/` in the directory) first.
        await log.append(userMessageEvent('first chained'));
        await log.appendMany([userMessageEvent('second'), userMessageEvent('third')]);
        await log.close();
        const spy = spyListings(store);
        const reopened = await EventLog.open(store, { dir: DIR });
        expect(spy.count()).toBe(0);
        expect(reopened.length).toBe(SEED + 3);
        expect(await ids(reopened)).toEqual(await listed(store));
      }),
    );

    it(
      'sees an event file removed after close',
      withStore(async (store, seedLog) => {
        await seedLog();
        const log = await EventLog.open(store, { dir: DIR });
        const last = `${DIR}/${eventFileName(SEED - 1, log.idAt(-1))}`;
        await store.delete(last);
        await store.delete(`${DIR}/.slots/${String(SEED - 1).padStart(5, '0')}.json`);
        const reopened = await EventLog.open(store, { dir: DIR });
        expect(reopened.length).toBe(SEED - 1);
        expect(await ids(reopened)).toEqual(await listed(store));
      }),
    );

    const damage: [string, (text: string) => string][] = [
      ['a header that is not JSON', (text) => `{nope${text.slice(text.indexOf('\n'))}`],
      ['a truncated file', (text) => text.slice(0, Math.floor(text.length / 2))],
      ['a count that does not match', (text) => text.replace(`"count":${SEED}`, `"count":${SEED + 1}`)],
      ['a wrong first name', (text) => text.replace('event-00000-', 'event-00001-')],
      ['a wrong last name', (text) => `${text.slice(0, text.lastIndexOf('event-'))}event-00003-x.json\n`],
      ['another format', (text) => text.replace('"x-name-index"', '"other"')],
    ];
    for (const [what, spoil] of damage) {
      it(
        `ignores an index with ${what}, warns, and lists`,
        withStore(async (store, seedLog) => {
          await seedLog();
          const path = nameIndexPath(DIR);
          await store.write(path, spoil(await store.read(path)));
          const truth = await listed(store);
          const { logger, messages } = warnings();
          const spy = spyListings(store);
          const log = await EventLog.open(store, { dir: DIR, logger });
          expect(spy.count()).toBe(1);
          expect(await ids(log)).toEqual(truth);
          expect(messages.some((message) => message.includes('name-index') && message.includes('ignored'))).toBe(true);
        }),
      );
    }

    it(
      "finds another instance's appends made after the index through their claims",
      withStore(async (store, seedLog) => {
        await seedLog();
        const other = await EventLog.open(store, { dir: DIR });
        const appended = userMessageEvent('by the other instance');
        await other.append(appended);
        // A writer that crashed after its claim, before its event file: the directory did not change.
        const crashing: FileStore = {
          ...store,
          // The two-call append, so that the event file's write can fail after the claim.
          writeIfAbsentThenWrite: undefined,
          writeIfAbsentThenLinkMany: undefined,
          write: async (path, data) => {
            if (path.includes('/event-')) throw new Error('crashed before the event file');
            return store.write(path, data);
          },
        };
        const crashed = await EventLog.open(crashing, { dir: DIR });
        const orphan = userMessageEvent('claimed only');
        // Committed by its claim: the append resolves, its event file left for the next open to write.
        expect(await crashed.append(orphan)).toBe(SEED + 1);
        const log = await EventLog.open(store, { dir: DIR });
        expect(log.length).toBe(SEED + 2);
        expect(await log.get(SEED)).toEqual(appended);
        expect(await log.get(SEED + 1)).toEqual(orphan);
        expect(await store.exists(`${DIR}/${eventFileName(SEED + 1, orphan.id)}`)).toBe(true);
        expect(await ids(log)).toEqual(await listed(store));
      }),
    );

    it(
      "keeps its index current when it finishes a crashed writer's append, so the next open lists nothing",
      withStore(async (store, seedLog) => {
        await seedLog();
        // A writer that crashed after its claim, before its event file: only `.slots/` changed.
        const crashing: FileStore = {
          ...store,
          writeIfAbsentThenWrite: undefined,
          writeIfAbsentThenLinkMany: undefined,
          write: async (path, data) => {
            if (path.includes('/event-')) throw new Error('crashed before the event file');
            return store.write(path, data);
          },
        };
        const orphan = userMessageEvent('claimed only');
        expect(await (await EventLog.open(crashing, { dir: DIR })).append(orphan)).toBe(SEED);
        // This open writes the orphan's event file from its claim (the next one after the index), then closes.
        const log = await EventLog.open(store, { dir: DIR });
        expect(await store.exists(`${DIR}/${eventFileName(SEED, orphan.id)}`)).toBe(true);
        await log.close();
        const spy = spyListings(store);
        const reopened = await EventLog.open(store, { dir: DIR });
        expect(spy.count()).toBe(0);
        expect(reopened.length).toBe(SEED + 1);
        expect(await reopened.get(SEED)).toEqual(orphan);
        expect(await ids(reopened)).toEqual(await listed(store));
      }),
    );

    it(
      'ignores the index of a log that was appended to without close (a crash)',
      withStore(async (store, seedLog) => {
        await seedLog();
        const log = await EventLog.open(store, { dir: DIR });
        for (let index = 0; index < 3; index++) await log.append(userMessageEvent(`no close ${index}`));
        const spy = spyListings(store);
        const reopened = await EventLog.open(store, { dir: DIR });
        expect(spy.count()).toBe(1);
        expect(reopened.length).toBe(SEED + 3);
        expect(await ids(reopened)).toEqual(await ids(log));
      }),
    );

    it(
      'stays right when another instance appends while this one writes its event file',
      withStore(async (store, seedLog) => {
        await seedLog();
        const other = await EventLog.open(store, { dir: DIR });
        const theirs = userMessageEvent('theirs, in the middle');
        let raced = false;
        const racing: FileStore = {
          ...store,
          // The two-call append, so that another append can land between the event file and the version after it.
          writeIfAbsentThenWrite: undefined,
          writeIfAbsentThenLinkMany: undefined,
          write: async (path, data) => {
            await store.write(path, data);
            // Between this instance's event file and the listing version it takes after it.
            if (!raced && path.includes('/event-')) {
              raced = true;
              await other.append(theirs);
            }
          },
        };
        const log = await EventLog.open(racing, { dir: DIR });
        const mine = userMessageEvent('mine');
        expect(await log.append(mine)).toBe(SEED);
        await log.close();
        await other.close();
        const reopened = await EventLog.open(store, { dir: DIR });
        expect(reopened.length).toBe(SEED + 2);
        expect(await reopened.get(SEED)).toEqual(mine);
        expect(await reopened.get(SEED + 1)).toEqual(theirs);
        expect(await ids(reopened)).toEqual(await listed(store));
      }),
    );

    it(
      'keeps what it knows of the directory across a relist, and writes a current index at close',
      withStore(async (store, seedLog) => {
        await seedLog();
        const log = await EventLog.open(store, { dir: DIR });
        await log.append(userMessageEvent('after the index'));
        expect(await log.refresh({ relist: true })).toBe(0);
        await log.close();
        const spy = spyListings(store);
        const reopened = await EventLog.open(store, { dir: DIR });
        expect(spy.count()).toBe(0);
        expect(await ids(reopened)).toEqual(await ids(log));
      }),
    );

    it(
      'opens an unchanged log from its index and closes it without writing anything',
      withStore(async (store, seedLog) => {
        await seedLog();
        const writes = (['write', 'writeIfAbsent', 'copy', 'delete'] as const).map((method) => vi.spyOn(store, method));
        const log = await EventLog.open(store, { dir: DIR });
        expect(log.length).toBe(SEED);
        await log.close();
        expect(writes.map((spy) => spy.mock.calls)).toEqual([[], [], [], []]);
      }),
    );

    it(
      'writes no index through a store without listing versions (no open could tell it is current)',
      withStore(async (store, seedLog) => {
        await seedLog();
        await store.delete(nameIndexPath(DIR));
        const log = await EventLog.open(withoutVersions(store), { dir: DIR });
        expect(log.length).toBe(SEED);
        await log.close();
        expect(await store.exists(nameIndexPath(DIR))).toBe(false);
      }),
    );

    it(
      'writes no index for a directory with a gap (the files after it are not part of the log)',
      withStore(async (store, seedLog) => {
        await seedLog();
        await store.delete(nameIndexPath(DIR));
        const file = (await store.list(DIR)).find((path) => path.startsWith(`${DIR}/event-00500-`));
        await store.delete(file!);
        await store.delete(`${DIR}/.slots/00500.json`);
        const { logger, messages } = warnings();
        const gapped = await EventLog.open(store, { dir: DIR, logger });
        expect(gapped.length).toBe(500);
        await gapped.close();
        expect(await store.exists(nameIndexPath(DIR))).toBe(false);
        expect(messages).toEqual([expect.stringContaining('index 500 is missing')]);
      }),
    );

    it(
      'writes no index for a short log, and close is idempotent',
      withStore(async (store, seedLog) => {
        await seedLog(10);
        expect(await store.exists(nameIndexPath(DIR))).toBe(false);
        const log = await EventLog.open(store, { dir: DIR });
        await log.close();
        await log.close();
        expect(await store.exists(nameIndexPath(DIR))).toBe(false);
      }),
    );
  });
}
