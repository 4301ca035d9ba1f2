import { generateKeyPairSync } from 'node:crypto';
import { serializeEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { headRecordPath } from '../src/chain/chain-records.js';
import { signChainHead } from '../src/chain/sign-chain-head.js';
import { signedHeadPath, signHead } from '../src/chain/signed-head.js';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { StoreBackendError } from '../src/errors/store-backend-error.js';
import { eventFileName, slotFileName } from '../src/event-log/file-names.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { userMessageEvent } from './helpers/events.js';

/**
 * Every field of `verifyEventChain`'s report for logs that verify (the tamper suites check the problems): where
 * the chain starts, its head hash, the head record's and the signed head's lengths. `signChainHead` signs
 * `headHash`, and callers show these numbers, so each must be the chain's own.
 */

const slotPath = (index: number) => `events/.slots/${slotFileName(index)}`;

/** The link hash the claim at `index` holds. */
async function linkHash(store: FileStore, index: number): Promise<string> {
  const claim = await store.read(slotPath(index));
  return (JSON.parse(claim.slice(0, claim.indexOf('\n'))) as { hash: string }).hash;
}

/** Writes `foreign` event files as the reference does (no claims), then appends `appended` events and closes. */
async function log(foreign: number, appended: number, store: FileStore = createMemoryFileStore()): Promise<FileStore> {
  for (let index = 0; index < foreign; index++) {
    const event = userMessageEvent(`foreign ${index}`);
    await store.write(`events/${eventFileName(index, event.id)}`, serializeEvent(event));
  }
  if (appended > 0) {
    const writer = await EventLog.open(store);
    for (let index = 0; index < appended; index++) await writer.append(userMessageEvent(`appended ${index}`));
    await writer.close();
  }
  return store;
}

describe('verifyEventChain report of a log that verifies', () => {
  it('a chained log: chained from 0, its last link as head hash, the head record written at close', async () => {
    const store = await log(0, 4);
    expect(await verifyEventChain(store)).toEqual({
      status: 'verified',
      length: 4,
      chainedFrom: 0,
      headHash: await linkHash(store, 3),
      signature: 'not-checked',
      signedLength: null,
      recordedLength: 4,
      problem: undefined,
      fromClaims: [],
    });
  });

  it('a log the reference started: chained from the first append on', async () => {
    const store = await log(3, 2);
    expect(await verifyEventChain(store)).toEqual({
      status: 'verified',
      length: 5,
      chainedFrom: 3,
      headHash: await linkHash(store, 4),
      signature: 'not-checked',
      signedLength: null,
      recordedLength: 5,
      problem: undefined,
      fromClaims: [],
    });
  });

  it('a log no append of ours touched: unchained, no head', async () => {
    expect(await verifyEventChain(await log(3, 0))).toEqual({
      status: 'unchained',
      length: 3,
      chainedFrom: null,
      headHash: null,
      signature: 'not-checked',
      signedLength: null,
      recordedLength: null,
      problem: undefined,
      fromClaims: [],
    });
  });

  it('a signed head: valid with its own length, also once the log grew past it', async () => {
    const store = await log(1, 3);
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const head = await signChainHead(store, { privateKey });
    expect(head).toMatchObject({ length: 4, hash: await linkHash(store, 3) });
    expect(await verifyEventChain(store, { publicKey })).toMatchObject({
      status: 'verified',
      signature: 'valid',
      signedLength: 4,
      recordedLength: 4,
      problem: undefined,
    });
    await log(0, 2, store);
    expect(await verifyEventChain(store, { publicKey })).toMatchObject({
      status: 'verified',
      length: 6,
      chainedFrom: 1,
      headHash: await linkHash(store, 5),
      signature: 'valid',
      signedLength: 4,
      recordedLength: 6,
      problem: undefined,
    });
  });

  it('a public key and no signed head, an unreadable one, or one of no events: a signature problem', async () => {
    const store = await log(0, 2);
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    expect(await verifyEventChain(store, { publicKey })).toMatchObject({
      status: 'tampered',
      signature: 'absent',
      signedLength: null,
      problem: { kind: 'signature', index: -1, message: 'no signed chain head was found' },
    });
    await store.write(signedHeadPath('events'), '{"length":');
    expect(await verifyEventChain(store, { publicKey })).toMatchObject({
      status: 'tampered',
      signature: 'invalid',
      problem: { kind: 'signature', index: -1, message: 'the signed chain head cannot be read' },
    });
    // A head signed with the right key but naming a hash the chain does not have at its length.
    const wrong = signHead(1, await linkHash(store, 1), privateKey);
    await store.write(signedHeadPath('events'), `${JSON.stringify(wrong)}\n`);
    expect(await verifyEventChain(store, { publicKey })).toMatchObject({
      status: 'tampered',
      signature: 'invalid',
      signedLength: null,
      problem: { kind: 'signature', index: 1, message: 'the signed head (1 events) does not match the chain' },
    });
    // A head of the first event alone, signed with its own hash, is valid.
    const first = signHead(1, await linkHash(store, 0), privateKey);
    await store.write(signedHeadPath('events'), `${JSON.stringify(first)}\n`);
    expect(await verifyEventChain(store, { publicKey })).toMatchObject({
      status: 'verified',
      signature: 'valid',
      signedLength: 1,
      problem: undefined,
    });
  });

  it('a head signed with another key: a signature problem at the signed length', async () => {
    const store = await log(0, 3);
    const { privateKey } = generateKeyPairSync('ed25519');
    const other = generateKeyPairSync('ed25519');
    await signChainHead(store, { privateKey });
    expect(await verifyEventChain(store, { publicKey: other.publicKey })).toMatchObject({
      status: 'tampered',
      signature: 'invalid',
      signedLength: null,
      problem: { kind: 'signature', index: 3, message: 'the signed chain head does not match the public key' },
    });
  });

  it('a key that cannot verify an Ed25519 signature: the signed head does not match it', async () => {
    const store = await log(0, 2);
    await signChainHead(store, { privateKey: generateKeyPairSync('ed25519').privateKey });
    // X25519 keys only agree on secrets: verifying with one throws inside node:crypto.
    const { publicKey } = generateKeyPairSync('x25519');
    expect(await verifyEventChain(store, { publicKey })).toMatchObject({
      status: 'tampered',
      signature: 'invalid',
      problem: { kind: 'signature', index: 2, message: 'the signed chain head does not match the public key' },
    });
  });

  it('a signed head of fields of the wrong types, or that the store fails to read: cannot be read', async () => {
    const store = await log(0, 3);
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const head = (await signChainHead(store, { privateKey }))!;
    const unreadable = {
      status: 'tampered',
      signature: 'invalid',
      problem: { kind: 'signature', index: -1, message: 'the signed chain head cannot be read' },
    };
    // The length as a string signs the same bytes (the message holds it as text), yet is no signed head; nor is one
    // whose hash or signature is not a string.
    for (const field of [{ length: String(head.length) }, { hash: 7 }, { signature: null }]) {
      await store.write(signedHeadPath('events'), `${JSON.stringify({ ...head, ...field })}\n`);
      expect(await verifyEventChain(store, { publicKey }), JSON.stringify(field)).toMatchObject(unreadable);
    }
    // A read that fails for another reason than a missing file: the head is there, not absent.
    await store.write(signedHeadPath('events'), `${JSON.stringify(head)}\n`);
    const failing = new Proxy(store, {
      get(target, property, receiver) {
        if (property !== 'read') return Reflect.get(target, property, receiver);
        return async (path: string) => {
          if (path === signedHeadPath('events')) {
            throw new StoreBackendError({ operation: 'read', path, location: 'memory', backendCode: 'EIO' });
          }
          return target.read(path);
        };
      },
    });
    expect(await verifyEventChain(failing, { publicKey })).toMatchObject(unreadable);
  });

  it('two head records (a crash between writing the new and deleting the old): the longer one counts', async () => {
    const store = await log(0, 2);
    const older = await store.read(headRecordPath('events', 2));
    await log(0, 3, store);
    await expect(store.read(headRecordPath('events', 2))).rejects.toThrow();
    await store.write(headRecordPath('events', 2), older);
    expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: 5, recordedLength: 5 });
  });

  it('a signed head longer than the log: the signed events past its end are reported removed', async () => {
    const store = await log(0, 3);
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    await store.write(
      signedHeadPath('events'),
      `${JSON.stringify(signHead(5, await linkHash(store, 2), privateKey))}\n`,
    );
    expect(await verifyEventChain(store, { publicKey })).toMatchObject({
      status: 'tampered',
      signature: 'valid',
      signedLength: 5,
      problem: { kind: 'removed', index: 3, message: 'events 3…4 were signed but are gone' },
    });
  });

  it('a chain record that cannot be read: reported at index -1 before any event is checked', async () => {
    const store = await log(0, 2);
    await store.write('events/.chain/anchor.json', '{"chainedFrom":');
    expect(await verifyEventChain(store)).toMatchObject({
      status: 'tampered',
      length: 2,
      chainedFrom: null,
      signature: 'not-checked',
      problem: {
        kind: 'altered',
        index: -1,
        id: undefined,
        message: `${store.describe('events/.chain/anchor.json')} is not JSON`,
      },
    });
    await store.write('events/.chain/anchor.json', '{"chainedFrom":0}\n');
    const head = 'events/.chain/head-00002.json';
    await store.write(head, (await store.read(head)).replace('"length":2', '"length":1'));
    expect((await verifyEventChain(store)).problem).toEqual({
      kind: 'altered',
      index: -1,
      id: undefined,
      message: `${store.describe(head)} records 1 events, not what its name says`,
    });
  });
});
