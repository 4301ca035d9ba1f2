// Which events must be signed: by default every event from the first signed one on, so an unsigned tail (records
// deleted, or events appended without one) is `incomplete`, while a prefix written before signing was turned on is
// allowed; `all` allows no unsigned event, `none` only checks the signatures present.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InvalidStoreOptionsError } from '../src/errors/invalid-store-options-error.js';
import { EventLog } from '../src/event-log.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import {
  createSigningEventLog,
  didKeyFromKey,
  type SignatureRequirement,
  signatureRecordPath,
  verifyEventSignatures,
} from '../src/signing/index.js';
import { userMessageEvent } from './helpers/events.js';

/** A log with `before` events appended unsigned, then `signed` signed, then `after` unsigned again. */
async function logOf(counts: { before?: number; signed?: number; after?: number }) {
  const store = createMemoryFileStore();
  const inner = await EventLog.open(store);
  const key = generateKeyPairSync('ed25519').privateKey;
  const signing = createSigningEventLog(inner, { store, dir: inner.dir, signer: key });
  const ids: string[] = [];
  const append = async (log: typeof inner | typeof signing, prefix: string, count: number) => {
    for (let n = 0; n < count; n++) {
      const id = `${prefix}-${ids.length}`;
      ids.push(id);
      await log.append(userMessageEvent(id, id));
    }
  };
  await append(inner, 'u', counts.before ?? 0);
  await append(signing, 's', counts.signed ?? 0);
  await append(inner, 'u', counts.after ?? 0);
  const location = { store, dir: inner.dir };
  const verify = (require?: SignatureRequirement) =>
    verifyEventSignatures(inner, location, require === undefined ? {} : { require });
  return { store, inner, signing, ids, location, verify, did: didKeyFromKey(key) };
}

describe('events appended without a signature after signed ones', () => {
  it('are incomplete by default, naming the first of them by index and id', async () => {
    const { verify, ids } = await logOf({ signed: 3, after: 2 });
    const report = await verify();
    expect(report).toMatchObject({
      status: 'incomplete',
      require: 'after-first-signed',
      length: 5,
      signed: 3,
      unsigned: 2,
      firstUnsigned: 3,
      unsignedPrefix: 0,
      missing: { index: 3, id: ids[3] },
      problem: undefined,
    });
    expect(report.missing?.message).toBe(
      `event 3 (id ${ids[3]}) has no signature record, though event 0 before it is signed`,
    );
    expect(await verify('all')).toMatchObject({ status: 'incomplete', missing: { index: 3, id: ids[3] } });
    expect(await verify('none')).toMatchObject({ status: 'verified', unsigned: 2, missing: undefined });
  });

  it('are incomplete in the middle too: a gap is not hidden by signed events after it', async () => {
    const { store, location, signing, verify, ids } = await logOf({ signed: 4 });
    await store.delete(signatureRecordPath(location.dir, ids[1]!));
    await signing.append(userMessageEvent('later', 'later'));
    expect(await verify()).toMatchObject({ status: 'incomplete', signed: 4, missing: { index: 1, id: ids[1] } });
  });

  it('are reported after a signature that does not verify, which comes first in the status', async () => {
    const { store, location, verify, ids } = await logOf({ signed: 2, after: 1 });
    const path = signatureRecordPath(location.dir, ids[0]!);
    const record = JSON.parse(await store.read(path));
    record.signature = `${record.signature[0] === 'A' ? 'B' : 'A'}${record.signature.slice(1)}`;
    await store.write(path, JSON.stringify(record));
    expect(await verify()).toMatchObject({
      status: 'invalid',
      problem: { kind: 'bad-signature', index: 0 },
      missing: { index: 2, id: ids[2] },
    });
  });
});

describe('a log whose writer turned signing on part way', () => {
  it('is verified by default, with the events before the first signed one counted as an unsigned prefix', async () => {
    const { verify, did } = await logOf({ before: 2, signed: 3 });
    expect(await verify()).toMatchObject({
      status: 'verified',
      signed: 3,
      unsigned: 2,
      firstUnsigned: 0,
      unsignedPrefix: 2,
      missing: undefined,
      signers: [{ did, events: 3, firstIndex: 2 }],
    });
  });

  it('is incomplete at its first event when every event must be signed', async () => {
    const { verify, ids } = await logOf({ before: 2, signed: 3 });
    const report = await verify('all');
    expect(report).toMatchObject({ status: 'incomplete', require: 'all', unsignedPrefix: 2 });
    expect(report.missing).toEqual({
      index: 0,
      id: ids[0],
      message: `event 0 (id ${ids[0]}) has no signature record, and every event must be signed`,
    });
  });

  it('still fails on an unsigned tail after the signed part', async () => {
    const { verify, ids } = await logOf({ before: 1, signed: 2, after: 1 });
    expect(await verify()).toMatchObject({
      status: 'incomplete',
      unsignedPrefix: 1,
      missing: { index: 3, id: ids[3] },
    });
  });
});

describe('a log with no signature at all', () => {
  it('is unsigned unless every event must be signed', async () => {
    const { verify, ids } = await logOf({ before: 3 });
    expect(await verify()).toMatchObject({ status: 'unsigned', unsigned: 3, unsignedPrefix: 3, missing: undefined });
    expect(await verify('none')).toMatchObject({ status: 'unsigned', missing: undefined });
    expect(await verify('all')).toMatchObject({ status: 'incomplete', missing: { index: 0, id: ids[0] } });
  });

  it('is unsigned when empty, whatever the requirement: no event lacks a signature', async () => {
    const { verify } = await logOf({});
    for (const require of ['after-first-signed', 'all', 'none'] as const) {
      expect(await verify(require)).toMatchObject({ status: 'unsigned', length: 0, missing: undefined });
    }
  });

  it('is what deleting every record of the first signed events looks like; only `all` tells it apart', async () => {
    const { store, location, verify, ids } = await logOf({ signed: 3 });
    await store.delete(signatureRecordPath(location.dir, ids[0]!));
    expect(await verify()).toMatchObject({ status: 'verified', unsignedPrefix: 1 });
    expect(await verify('all')).toMatchObject({ status: 'incomplete', missing: { index: 0, id: ids[0] } });
  });
});

describe('the requirement option', () => {
  it('refuses a requirement it does not know rather than reading it as the default', async () => {
    const { inner, location } = await logOf({ signed: 1 });
    const misspelt = { require: 'al' } as unknown as { require: SignatureRequirement };
    await expect(verifyEventSignatures(inner, location, misspelt)).rejects.toThrow(InvalidStoreOptionsError);
    await expect(verifyEventSignatures(inner, location, misspelt)).rejects.toThrow(
      /'require': expected one of after-first-signed, all, none, got "al"/,
    );
  });
});
