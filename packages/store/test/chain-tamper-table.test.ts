import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { computeChainHash } from '../src/chain/chain-link.js';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { eventFileName, slotFileName } from '../src/event-log/file-names.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { userMessageEvent } from './helpers/events.js';

/** Long enough that indices reach two digits and the packed read cache holds some of them. */
const COUNT = Number(process.env.TABLE_COUNT ?? 12);

const eventPath = (index: number, id: string) => `events/${eventFileName(index, id)}`;
const slotPath = (index: number) => `events/.slots/${slotFileName(index)}`;

interface Expected {
  status: 'verified' | 'tampered' | 'unchained';
  /** The first bad index (tampered only). */
  index?: number;
  kind?: string;
  fromClaims?: number[];
}

interface Tampering {
  name: string;
  /** The indices to tamper at (each a separate log). */
  at: (count: number) => number[];
  apply: (store: FileStore, ids: readonly string[], index: number) => Promise<void>;
  expected: (index: number, count: number) => Expected;
}

async function move(store: FileStore, from: string, to: string): Promise<void> {
  const data = await store.read(from);
  await store.delete(from);
  await store.write(to, data);
}

async function recomputedClaim(store: FileStore, index: number, eventJson: string): Promise<string> {
  const claim = await store.read(slotPath(index));
  const header = JSON.parse(claim.slice(0, claim.indexOf('\n'))) as { prev: string | null; hash: string };
  header.hash = computeChainHash(index, header.prev, eventJson);
  return `${JSON.stringify(header)}\n${eventJson}`;
}

async function deleteTree(store: FileStore, dir: string): Promise<void> {
  for (const path of await store.list(dir)) {
    if (path.endsWith('/')) await deleteTree(store, path.slice(0, -1));
    else await store.delete(path);
  }
}

const all = (count: number) => Array.from({ length: count }, (_, index) => index);

const tamperings: Tampering[] = [
  {
    name: 'edit the content of an event file',
    at: all,
    apply: async (store, ids, index) => {
      const path = eventPath(index, ids[index]!);
      await store.write(path, (await store.read(path)).replace(`message ${index}"`, `message X${index}"`));
    },
    expected: (index) => ({ status: 'tampered', kind: 'altered', index }),
  },
  {
    name: 'delete an event file (its claim remains)',
    at: all,
    apply: (store, ids, index) => store.delete(eventPath(index, ids[index]!)),
    // The last file may be missing after a power loss (it is written without fsync once its claim is
    // durable): the event is checked from its claim, and the next read writes the file again.
    expected: (index, count) =>
      index === count - 1
        ? { status: 'verified', fromClaims: [index] }
        : { status: 'tampered', kind: 'removed', index },
  },
  {
    name: 'delete an event file and its claim',
    at: all,
    apply: async (store, ids, index) => {
      await store.delete(eventPath(index, ids[index]!));
      await store.delete(slotPath(index));
    },
    expected: (index) => ({ status: 'tampered', kind: 'removed', index }),
  },
  {
    name: 'truncate the tail (event files and claims from the index on)',
    at: all,
    apply: async (store, ids, index) => {
      for (let i = index; i < ids.length; i++) {
        await store.delete(eventPath(i, ids[i]!));
        await store.delete(slotPath(i));
      }
    },
    expected: (index) => ({ status: 'tampered', kind: 'removed', index }),
  },
  {
    name: 'swap two event files (index and index + 1)',
    at: (count) => all(count - 1),
    apply: async (store, ids, index) => {
      await move(store, eventPath(index, ids[index]!), eventPath(index + 1, `${ids[index]!}`));
      await move(store, eventPath(index + 1, ids[index + 1]!), eventPath(index, ids[index + 1]!));
    },
    expected: (index) => ({ status: 'tampered', kind: 'reordered', index }),
  },
  {
    name: 'swap two events with their claims (index and index + 1)',
    at: (count) => all(count - 1),
    apply: async (store, ids, index) => {
      await move(store, eventPath(index, ids[index]!), eventPath(index + 1, ids[index]!));
      await move(store, eventPath(index + 1, ids[index + 1]!), eventPath(index, ids[index + 1]!));
      const [a, b] = [await store.read(slotPath(index)), await store.read(slotPath(index + 1))];
      await store.write(slotPath(index), b);
      await store.write(slotPath(index + 1), a);
    },
    expected: (index) => ({ status: 'tampered', kind: 'reordered', index }),
  },
  {
    name: 'rewrite an event with a recomputed claim',
    at: all,
    apply: async (store, ids, index) => {
      const path = eventPath(index, ids[index]!);
      const forged = (await store.read(path)).replace(`message ${index}"`, `message X${index}"`);
      await store.write(slotPath(index), await recomputedClaim(store, index, forged));
      await store.write(path, forged);
    },
    expected: (index) => ({ status: 'tampered', kind: 'altered', index }),
  },
  {
    name: 'delete the slot claims from the start up to an index (event files kept)',
    at: all,
    apply: async (store, _ids, index) => {
      for (let i = 0; i <= index; i++) await store.delete(slotPath(i));
    },
    expected: () => ({ status: 'tampered', kind: 'removed', index: 0 }),
  },
  {
    name: 'a log written before anchors and head records: delete its first slot claims up to an index',
    at: all,
    apply: async (store, _ids, index) => {
      await deleteTree(store, 'events/.chain');
      for (let i = 0; i <= index; i++) await store.delete(slotPath(i));
    },
    // Without the anchor, stripping every claim leaves a log indistinguishable from an unchained one.
    expected: (index, count) =>
      index === count - 1 ? { status: 'unchained' } : { status: 'tampered', kind: 'removed', index: 0 },
  },
  {
    name: 'delete one slot claim (its event file kept)',
    at: all,
    apply: (store, _ids, index) => store.delete(slotPath(index)),
    // Where the chain starts, the anchor (events/.chain/anchor.json) says a link was there: removed.
    expected: (index) => ({ status: 'tampered', kind: index === 0 ? 'removed' : 'inserted', index }),
  },
  {
    name: 'insert a forged event with a forged claim, successors renumbered with their claims',
    at: all,
    apply: async (store, ids, index) => {
      for (let i = ids.length - 1; i >= index; i--) {
        await move(store, eventPath(i, ids[i]!), eventPath(i + 1, ids[i]!));
        await move(store, slotPath(i), slotPath(i + 1));
      }
      const forged = JSON.stringify(userMessageEvent('forged'));
      const id = (JSON.parse(forged) as { id: string }).id;
      const prev =
        index === 0
          ? null
          : (JSON.parse((await store.read(slotPath(index - 1))).split('\n', 1)[0]!) as { hash: string }).hash;
      const link = { chain: 1, index, id, prev, hash: computeChainHash(index, prev, forged) };
      await store.write(slotPath(index), `${JSON.stringify(link)}\n${forged}`);
      await store.write(eventPath(index, id), forged);
    },
    expected: (index) => ({ status: 'tampered', kind: 'inserted', index }),
  },
  {
    name: "rewrite an event with a claim recomputed on a wrong prev (the previous file's hash, not its link)",
    at: (count) => all(count).slice(1),
    apply: async (store, ids, index) => {
      const path = eventPath(index, ids[index]!);
      const forged = (await store.read(path)).replace(`message ${index}"`, `message X${index}"`);
      const claim = await store.read(slotPath(index));
      const header = JSON.parse(claim.slice(0, claim.indexOf('\n'))) as { prev: string | null; hash: string };
      header.prev = createHash('sha256')
        .update(await store.read(eventPath(index - 1, ids[index - 1]!)))
        .digest('hex');
      header.hash = computeChainHash(index, header.prev, forged);
      await store.write(slotPath(index), `${JSON.stringify(header)}\n${forged}`);
      await store.write(path, forged);
    },
    expected: (index) => ({ status: 'tampered', kind: 'altered', index }),
  },
  {
    name: 'delete events/.slots, then edit an event',
    at: all,
    apply: async (store, ids, index) => {
      await deleteTree(store, 'events/.slots');
      const path = eventPath(index, ids[index]!);
      await store.write(path, (await store.read(path)).replace(`message ${index}"`, `message X${index}"`));
    },
    expected: () => ({ status: 'tampered', kind: 'removed', index: 0 }),
  },
];

const roots: string[] = [];
/** Each tampered log's directory goes as soon as it was verified, so no hook has many to remove at once. */
async function removeRoots(): Promise<void> {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
}
afterEach(removeRoots, 120_000);

/** Twelve logs written and verified per case: generous for a loaded machine, never a stand-in for a condition. */
const caseTimeoutMs = 300_000;

const stores: Array<[string, () => Promise<FileStore>]> = [
  ['memory', async () => createMemoryFileStore()],
  [
    'local',
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'x-chain-table-'));
      roots.push(root);
      return createLocalFileStore({ root, durability: 'none' });
    },
  ],
];

async function writtenLog(makeStore: () => Promise<FileStore>): Promise<{ store: FileStore; ids: string[] }> {
  const store = await makeStore();
  const log = await EventLog.open(store, process.env.TABLE_DEFAULT ? {} : { packs: { chunkSize: 4 } });
  const ids: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const event = userMessageEvent(`message ${i}`);
    await log.append(event);
    ids.push(event.id);
  }
  await log.close();
  return { store, ids };
}

describe.each(stores)('every tampering at every index (%s store)', (_name, makeStore) => {
  it('verifies the untouched log as chained', async () => {
    const { store } = await writtenLog(makeStore);
    expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: COUNT, chainedFrom: 0 });
  });

  for (const tampering of tamperings) {
    it(
      tampering.name,
      async () => {
        const outcomes: string[] = [];
        const wanted: string[] = [];
        for (const index of tampering.at(COUNT)) {
          const { store, ids } = await writtenLog(makeStore);
          await tampering.apply(store, ids, index);
          const report = await verifyEventChain(store);
          const expected = tampering.expected(index, COUNT);
          const describe = (status: string, kind?: string, at?: number, fromClaims?: readonly number[]) =>
            `at ${index}: ${status}${kind === undefined ? '' : ` ${kind} ${at}`}${fromClaims?.length ? ` from claims ${fromClaims.join(',')}` : ''}`;
          outcomes.push(describe(report.status, report.problem?.kind, report.problem?.index, report.fromClaims));
          wanted.push(describe(expected.status, expected.kind, expected.index, expected.fromClaims));
          await removeRoots();
        }
        expect(outcomes).toEqual(wanted);
      },
      caseTimeoutMs,
    );
  }
});
