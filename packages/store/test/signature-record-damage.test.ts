// A signature record that is there but cannot be used is a problem the report names (`invalid`), never taken for
// a missing record (`incomplete`, or nothing at all under `require: 'none'`): someone who damages or swaps a
// record must not make a signed event look merely unsigned.
import { generateKeyPairSync } from 'node:crypto';
import { type AnyEvent, EventsError } from '@x/events';
import { describe, expect, it } from 'vitest';
import { DuplicateEventIdError } from '../src/errors/duplicate-event-id-error.js';
import { InvalidEventIdError } from '../src/errors/invalid-event-id-error.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import {
  canonicalJson,
  createSigningEventLog,
  signatureRecordPath,
  verifyEventSignatures,
} from '../src/signing/index.js';
import { userMessageEvent } from './helpers/events.js';

/** Two signed events; the record of the second is then replaced by `damage` of its text. */
async function withDamagedRecord(damage: (text: string, store: FileStore, dir: string) => string | Promise<string>) {
  const store = createMemoryFileStore();
  const inner = await EventLog.open(store);
  const log = createSigningEventLog(inner, {
    store,
    dir: inner.dir,
    signer: generateKeyPairSync('ed25519').privateKey,
  });
  for (const id of ['s-0', 's-1']) await log.append(userMessageEvent(id, id));
  const path = signatureRecordPath(inner.dir, 's-1');
  await store.write(path, await damage(await store.read(path), store, inner.dir));
  const location = { store, dir: inner.dir };
  return { inner, location, described: store.describe(path) };
}

describe('a damaged signature record', () => {
  it('that is not JSON is reported unreadable, naming its file, under every requirement', async () => {
    const { inner, location, described } = await withDamagedRecord(() => '{"id": "s-1", oops');
    for (const require of ['none', 'after-first-signed', 'all'] as const) {
      const report = await verifyEventSignatures(inner, location, { require });
      expect(report.status).toBe('invalid');
      expect(report.problem).toMatchObject({ kind: 'unreadable', index: 1, id: 's-1' });
      expect(report.problem?.message).toBe(`${described} is not JSON`);
      expect(report.signed).toBe(1);
    }
  });

  it('that cannot be read is reported with the read error', async () => {
    const { inner, location, described } = await withDamagedRecord((text) => text);
    const failing: FileStore = Object.create(location.store, {
      read: {
        value: async (path: string) => {
          if (path === signatureRecordPath(location.dir, 's-1')) throw new Error('EIO: the disk said no');
          return location.store.read(path);
        },
      },
    });
    const report = await verifyEventSignatures(inner, { store: failing, dir: location.dir }, { require: 'none' });
    expect(report.status).toBe('invalid');
    expect(report.problem?.message).toBe(`${described} cannot be read: EIO: the disk said no`);
  });

  it('whose fields are wrong names the first wrong field, or (root)', async () => {
    const wrongSigner = await withDamagedRecord((text) => JSON.stringify({ ...JSON.parse(text), signer: 'did:web:x' }));
    const report = await verifyEventSignatures(wrongSigner.inner, wrongSigner.location, { require: 'none' });
    expect(report.status).toBe('invalid');
    expect(report.problem?.message).toMatch(new RegExp(`^${escapeRegExp(wrongSigner.described)}: signer `));
    const notObject = await withDamagedRecord(() => '[1, 2]');
    const rootReport = await verifyEventSignatures(notObject.inner, notObject.location, { require: 'none' });
    expect(rootReport.problem?.message).toMatch(new RegExp(`^${escapeRegExp(notObject.described)}: \\(root\\) `));
    // Several fields wrong: the first issue is named (the id, which comes first in the record).
    const emptyId = await withDamagedRecord((text) => JSON.stringify({ ...JSON.parse(text), id: '', signer: 'x' }));
    const emptyReport = await verifyEventSignatures(emptyId.inner, emptyId.location, { require: 'none' });
    expect(emptyReport.problem?.message).toMatch(new RegExp(`^${escapeRegExp(emptyId.described)}: id `));
  });

  it("that signs another event (a record copied over this one's) is a problem, not a signature", async () => {
    const { inner, location, described } = await withDamagedRecord((_text, store, dir) =>
      store.read(signatureRecordPath(dir, 's-0')),
    );
    const report = await verifyEventSignatures(inner, location, { require: 'none' });
    expect(report.status).toBe('invalid');
    expect(report.problem).toMatchObject({ kind: 'unreadable', index: 1, id: 's-1' });
    expect(report.problem?.message).toBe(`${described} signs event s-0, not s-1`);
  });
});

describe('canonicalJson', () => {
  it('sorts keys given in any order, at every level', () => {
    const keys = 'qwertyuiopasdfghjklzxcvbnm'.split('');
    const value = Object.fromEntries(keys.map((key, index) => [key, { [`z${index}`]: index, [`a${index}`]: -index }]));
    const text = canonicalJson(value);
    expect(Object.keys(JSON.parse(text))).toEqual([...keys].sort());
    expect(text.startsWith(`{"a":{"a10":-10,"z10":10},"b":{"a23":-23,"z23":23}`)).toBe(true);
    expect(canonicalJson(Object.fromEntries([...keys].reverse().map((key) => [key, 1])))).toBe(
      `{${[...keys]
        .sort()
        .map((key) => `"${key}":1`)
        .join(',')}}`,
    );
  });

  it('keeps falsy array items as they are; undefined items become null, as JSON.stringify writes them', () => {
    expect(canonicalJson([0, false, '', null, undefined])).toBe('[0,false,"",null,null]');
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('a signing log refusing an append', () => {
  async function signingLog() {
    const store = createMemoryFileStore();
    const inner = await EventLog.open(store);
    const key = generateKeyPairSync('ed25519').privateKey;
    return { store, inner, log: createSigningEventLog(inner, { store, dir: inner.dir, signer: key }) };
  }

  it("keeps the held event's signature when a different event with its id is refused as a duplicate", async () => {
    const { store, inner, log } = await signingLog();
    // Another writer's instance, opened before the event was appended (it has not seen it).
    const other = createSigningEventLog(await EventLog.open(store), {
      store,
      dir: inner.dir,
      signer: generateKeyPairSync('ed25519').privateKey,
    });
    await log.append(userMessageEvent('the original', 'e-1'));
    const before = await store.read(signatureRecordPath(inner.dir, 'e-1'));
    await expect(log.append(userMessageEvent('an impostor', 'e-1'))).rejects.toBeInstanceOf(DuplicateEventIdError);
    expect(await store.read(signatureRecordPath(inner.dir, 'e-1'))).toBe(before);
    await inner.append(userMessageEvent('unsigned', 'e-2'));
    expect(other.length).toBe(0);
    await expect(other.append(userMessageEvent('again', 'e-1'))).rejects.toBeInstanceOf(DuplicateEventIdError);
    expect(await store.read(signatureRecordPath(inner.dir, 'e-1'))).toBe(before);
    const report = await verifyEventSignatures(inner, { store, dir: inner.dir });
    expect(report).toMatchObject({ status: 'incomplete', signed: 1, problem: undefined });
  });

  it('replaces the record an append that then failed left behind', async () => {
    const { store, inner, log } = await signingLog();
    await store.write(signatureRecordPath(inner.dir, 'e-1'), '{"left": "by a failed append"}\n');
    await log.append(userMessageEvent('now appended', 'e-1'));
    expect(await verifyEventSignatures(inner, { store, dir: inner.dir })).toMatchObject({ status: 'verified' });
  });

  it('refuses an invalid event or an id that cannot name a file with the log’s errors, writing nothing', async () => {
    const { store, inner, log } = await signingLog();
    const broken = { ...userMessageEvent('x', 'e-3'), llm_message: 5 } as unknown as AnyEvent;
    const invalid = await log.append(broken).catch((caught: unknown) => caught);
    expect(EventsError.isInstance(invalid)).toBe(true);
    for (const id of ['../../base_state', 'a/b']) {
      await expect(log.append(userMessageEvent('x', id))).rejects.toBeInstanceOf(InvalidEventIdError);
    }
    expect(await store.list('')).toEqual([]);
    expect(inner.length).toBe(0);
  });

  it('refuses a batch holding an invalid event or a bad id before writing the record of any event in it', async () => {
    const { store, inner, log } = await signingLog();
    const broken = { ...userMessageEvent('x', 'e-3'), llm_message: 5 } as unknown as AnyEvent;
    const invalid = await log.appendMany!([userMessageEvent('fine', 'e-1'), broken]).catch((caught: unknown) => caught);
    expect(EventsError.isInstance(invalid)).toBe(true);
    await expect(
      log.appendMany!([userMessageEvent('fine', 'e-1'), userMessageEvent('x', '../../base_state')]),
    ).rejects.toBeInstanceOf(InvalidEventIdError);
    expect(await store.list('')).toEqual([]);
    expect(inner.length).toBe(0);
  });
});
