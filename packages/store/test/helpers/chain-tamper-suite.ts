import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { computeChainHash } from '../../src/chain/chain-link.js';
import { writeHeadRecord } from '../../src/chain/chain-records.js';
import { signChainHead } from '../../src/chain/sign-chain-head.js';
import { verifyEventChain } from '../../src/chain/verify-chain.js';
import { ChainTamperedError } from '../../src/errors/chain-tampered-error.js';
import { eventFileName, slotFileName } from '../../src/event-log/file-names.js';
import { EventLog } from '../../src/event-log.js';
import type { FileStore } from '../../src/file-store.js';
import { userMessageEvent } from './events.js';

const eventPath = (index: number, id: string) => `events/${eventFileName(index, id)}`;
const slotPath = (index: number) => `events/.slots/${slotFileName(index)}`;

async function move(store: FileStore, from: string, to: string): Promise<void> {
  await store.write(to, await store.read(from));
  await store.delete(from);
}

/** What an attacker who can write the store does to the unsigned head: records the log as it is now. */
async function forgeHeadRecord(store: FileStore): Promise<void> {
  for (const path of await store.list('events/.chain')) if (path.includes('/head-')) await store.delete(path);
  const report = await verifyEventChain(store);
  const last = report.length - 1;
  const name = (await store.list('events')).find((path) => path.includes(`event-${String(last).padStart(5, '0')}-`))!;
  const id = name.slice(name.lastIndexOf('/') + 'event-00000-'.length + 1, -'.json'.length);
  await writeHeadRecord(store, 'events', { length: report.length, id, hash: report.headHash! });
}

/** A chained log of `count` events; returns the store and the ids in order. */
async function chainedLog(makeStore: () => Promise<FileStore>, count = 6) {
  const store = await makeStore();
  const log = await EventLog.open(store);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const event = userMessageEvent(`message ${i}`);
    await log.append(event);
    ids.push(event.id);
  }
  // Every event file finished (S3 finishes them after the appends resolve), so tampering finds them all.
  await log.close();
  return { store, ids, log };
}

/**
 * Tampering of every kind, done through the `FileStore` API so that it runs the same on every backend,
 * and the index and id `verifyEventChain` must report for it.
 */
export function describeChainTamperSuite(name: string, makeStore: () => Promise<FileStore>): void {
  describe(`tamper-evident event chain on ${name}`, () => {
    it('verifies an untouched log and keeps the event files in the reference format', async () => {
      const { store, ids } = await chainedLog(makeStore);
      const report = await verifyEventChain(store);
      expect(report).toMatchObject({ status: 'verified', length: 6, chainedFrom: 0, problem: undefined });
      // The event file is the bare event JSON; the link lives in the claim only.
      const file = await store.read(eventPath(2, ids[2]!));
      expect(JSON.parse(file)).not.toHaveProperty('chain');
      const claim = await store.read(slotPath(2));
      if (store.writeIfAbsentThenLinkMany === undefined) {
        expect(claim.endsWith(`\n${file}`)).toBe(true);
      } else {
        // The local store stores the bytes once: the claim is the link alone, the bytes its staged body.
        expect(claim.endsWith('}\n')).toBe(true);
        expect(await store.read(eventPath(2, ids[2]!).replace('events/', 'events/.slots/'))).toBe(file);
      }
      expect(report.headHash).toMatch(/^[0-9a-f]{64}$/);
    });

    it('chains appends made by separate writers to one log', async () => {
      const store = await makeStore();
      const [a, b] = await Promise.all([EventLog.open(store), EventLog.open(store)]);
      await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).append(userMessageEvent(`racing ${i}`))));
      // A third instance opened from a listing reads the last claim once to chain its first append.
      const late = await EventLog.open(store);
      await late.append(userMessageEvent('late'));
      expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: 9, chainedFrom: 0 });
    });

    it('keeps the longest head when concurrent writers close in any order, and then catches a truncation', async () => {
      const store = await makeStore();
      const [a, b] = [await EventLog.open(store), await EventLog.open(store)];
      await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).append(userMessageEvent(`racing ${i}`))));
      // `a` may not know `b`'s last appends: its head can be shorter. Close the longer one first, then the other.
      const [first, second] = a.length >= b.length ? [a, b] : [b, a];
      await first.close();
      await second.close();
      const heads = (await store.list('events/.chain')).filter((path) => path.includes('/head-'));
      expect(heads).toEqual(['events/.chain/head-00008.json']);
      expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: 8, recordedLength: 8 });
      const last = await EventLog.open(store);
      await store.delete(eventPath(7, last.idAt(7)));
      await store.delete(slotPath(7));
      expect((await verifyEventChain(store)).problem).toMatchObject({ kind: 'removed', index: 7 });
    });

    it('reports an altered event at its index', async () => {
      const { store, ids } = await chainedLog(makeStore);
      const path = eventPath(3, ids[3]!);
      await store.write(path, (await store.read(path)).replace('message 3', 'message 9'));
      const { status, problem } = await verifyEventChain(store);
      expect(status).toBe('tampered');
      expect(problem).toMatchObject({ kind: 'altered', index: 3, id: ids[3] });
      expect(problem?.message).toContain(ids[3]);
    });

    it('reports an altered byte that leaves the JSON equal (whitespace)', async () => {
      const { store, ids } = await chainedLog(makeStore);
      const path = eventPath(1, ids[1]!);
      await store.write(path, `${await store.read(path)}\n`);
      expect((await verifyEventChain(store)).problem).toMatchObject({ kind: 'altered', index: 1, id: ids[1] });
    });

    it('reports a removed event file at its index', async () => {
      const { store, ids } = await chainedLog(makeStore);
      await store.delete(eventPath(2, ids[2]!));
      expect((await verifyEventChain(store)).problem).toMatchObject({ kind: 'removed', index: 2, id: ids[2] });
    });

    it('reports a removed event whose successors were renumbered to close the gap', async () => {
      const { store, ids } = await chainedLog(makeStore);
      await store.delete(eventPath(2, ids[2]!));
      for (let i = 3; i < 6; i++) await move(store, eventPath(i, ids[i]!), eventPath(i - 1, ids[i]!));
      expect((await verifyEventChain(store)).problem).toMatchObject({ kind: 'removed', index: 2, id: ids[2] });
    });

    it('reports a removed event whose claim was renumbered too', async () => {
      const { store, ids } = await chainedLog(makeStore);
      await store.delete(eventPath(2, ids[2]!));
      await store.delete(slotPath(2));
      for (let i = 3; i < 6; i++) {
        await move(store, eventPath(i, ids[i]!), eventPath(i - 1, ids[i]!));
        await move(store, slotPath(i), slotPath(i - 1));
      }
      const { problem } = await verifyEventChain(store);
      expect(problem).toMatchObject({ kind: 'removed', index: 2 });
    });

    it('reports two swapped events as reordered at the first of them', async () => {
      const { store, ids } = await chainedLog(makeStore);
      await move(store, eventPath(2, ids[2]!), eventPath(3, ids[2]!));
      await move(store, eventPath(3, ids[3]!), eventPath(2, ids[3]!));
      expect((await verifyEventChain(store)).problem).toMatchObject({ kind: 'reordered', index: 2, id: ids[3] });
    });

    it('reports an event inserted in the middle (successors renumbered) at its index', async () => {
      const { store, ids } = await chainedLog(makeStore);
      for (let i = 5; i >= 3; i--) await move(store, eventPath(i, ids[i]!), eventPath(i + 1, ids[i]!));
      const forged = userMessageEvent('forged');
      await store.write(eventPath(3, forged.id), JSON.stringify(forged));
      expect((await verifyEventChain(store)).problem).toMatchObject({ kind: 'inserted', index: 3, id: forged.id });
    });

    it('reports an event added at the end without a link as inserted', async () => {
      const { store } = await chainedLog(makeStore);
      const forged = userMessageEvent('forged');
      await store.write(eventPath(6, forged.id), JSON.stringify(forged));
      expect((await verifyEventChain(store)).problem).toMatchObject({ kind: 'inserted', index: 6, id: forged.id });
    });

    it('reports a replaced event whose own link was forged, through its successor', async () => {
      const { store, ids } = await chainedLog(makeStore);
      const claim = await store.read(slotPath(2));
      const header = JSON.parse(claim.slice(0, claim.indexOf('\n')));
      const path = eventPath(2, ids[2]!);
      const forgedJson = (await store.read(path)).replace('message 2', 'message X');
      header.hash = computeChainHash(2, header.prev, forgedJson);
      await store.write(path, forgedJson);
      await store.write(slotPath(2), `${JSON.stringify(header)}\n${forgedJson}`);
      expect((await verifyEventChain(store)).problem).toMatchObject({ kind: 'altered', index: 2, id: ids[2] });
    });

    it('signs the head with the user key and then detects truncation and a rewritten chain', async () => {
      const { store, ids } = await chainedLog(makeStore);
      const { privateKey, publicKey } = generateKeyPairSync('ed25519');
      const head = await signChainHead(store, { privateKey });
      expect(head?.length).toBe(6);
      expect(await verifyEventChain(store, { publicKey })).toMatchObject({
        status: 'verified',
        signature: 'valid',
        signedLength: 6,
      });
      // Another key does not verify it.
      const other = generateKeyPairSync('ed25519').publicKey;
      expect((await verifyEventChain(store, { publicKey: other })).problem).toMatchObject({ kind: 'signature' });
      // Truncation: the last event and its claim deleted. The head record written at close catches it.
      await store.delete(eventPath(5, ids[5]!));
      await store.delete(slotPath(5));
      expect((await verifyEventChain(store)).problem).toMatchObject({ kind: 'removed', index: 5 });
      // With the head record rewritten as well, only the signed head does.
      await forgeHeadRecord(store);
      expect((await verifyEventChain(store)).status).toBe('verified');
      expect((await verifyEventChain(store, { publicKey })).problem).toMatchObject({ kind: 'removed', index: 5 });
    });

    it('detects a chain rewritten from an altered event on through the signed head only', async () => {
      const { store, ids } = await chainedLog(makeStore, 4);
      const { privateKey, publicKey } = generateKeyPairSync('ed25519');
      await signChainHead(store, { privateKey });
      // Rewrite event 3 (the last) together with a correct link: the chain itself is consistent again.
      const claim = await store.read(slotPath(3));
      const header = JSON.parse(claim.slice(0, claim.indexOf('\n')));
      const path = eventPath(3, ids[3]!);
      const forgedJson = (await store.read(path)).replace('message 3', 'message X');
      header.hash = computeChainHash(3, header.prev, forgedJson);
      await store.write(path, forgedJson);
      await store.write(slotPath(3), `${JSON.stringify(header)}\n${forgedJson}`);
      // The head record written at close still has the old link: caught unsigned.
      expect((await verifyEventChain(store)).problem).toMatchObject({ kind: 'altered', index: 3, id: ids[3] });
      // An attacker who rewrites the head record too is caught by the signed head only.
      await forgeHeadRecord(store);
      expect((await verifyEventChain(store)).status).toBe('verified');
      expect(await verifyEventChain(store, { publicKey })).toMatchObject({
        status: 'tampered',
        signature: 'invalid',
        problem: { kind: 'signature', index: 4 },
      });
    });

    it('refuses to sign a chain that does not verify', async () => {
      const { store, ids } = await chainedLog(makeStore, 3);
      await store.write(eventPath(1, ids[1]!), JSON.stringify(userMessageEvent('other', ids[1])));
      const { privateKey } = generateKeyPairSync('ed25519');
      const error = await signChainHead(store, { privateKey }).catch((caught: unknown) => caught);
      expect(ChainTamperedError.isInstance(error)).toBe(true);
      expect((error as ChainTamperedError).problem).toMatchObject({ kind: 'altered', index: 1 });
    });

    it('serves and verifies a committed event whose file a crashed writer never wrote', async () => {
      const { store, ids } = await chainedLog(makeStore, 3);
      await store.delete(eventPath(2, ids[2]!));
      expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: 3 });
      const reopened = await EventLog.open(store);
      expect((await reopened.get(2)).id).toBe(ids[2]);
      expect(await store.exists(eventPath(2, ids[2]!))).toBe(true);
      expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: 3 });
    });
  });
}
