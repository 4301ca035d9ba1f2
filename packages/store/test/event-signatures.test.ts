import { generateKeyPairSync } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AnyEvent, parseEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidDidKeyError } from '../src/errors/invalid-did-key-error.js';
import { InvalidSigningKeyError } from '../src/errors/invalid-signing-key-error.js';
import { EventLog } from '../src/event-log.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import {
  canonicalJson,
  createSigningEventLog,
  didKeyFromKey,
  isSigned,
  publicKeyFromDidKey,
  signatureRecordPath,
  signEvent,
  signedPayload,
  verifyEventSignatures,
  verifySignature,
} from '../src/signing/index.js';
import { userMessageEvent } from './helpers/events.js';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

async function tempRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'x-signing-'));
  roots.push(root);
  return root;
}

function actionEvent(args: string): AnyEvent {
  return parseEvent({
    id: 'action-1',
    timestamp: '2026-11-21T10:00:01.000000',
    source: 'agent',
    thought: [{ type: 'text', text: 'let me look' }],
    tool_name: 'terminal',
    tool_call_id: 'call_1',
    tool_call: { id: 'call_1', name: 'terminal', arguments: args, origin: 'completion' },
    llm_response_id: 'resp-1',
    kind: 'ActionEvent',
  });
}

describe('did:key', () => {
  it('names an Ed25519 key as did:key:z6Mk… and gives the same public key back', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const did = didKeyFromKey(privateKey);
    expect(did).toMatch(/^did:key:z6Mk[1-9A-HJ-NP-Za-km-z]{44}$/);
    expect(didKeyFromKey(publicKey)).toBe(did);
    expect(publicKeyFromDidKey(did).export({ format: 'jwk' })).toEqual(publicKey.export({ format: 'jwk' }));
  });

  it('matches the did:key of RFC 8032 test key 1 (raw public key d75a98…511a)', () => {
    const x = Buffer.from('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', 'hex');
    const did = 'did:key:z6MktwupdmLXVVqTzCw4i46r4uGyosGXRnR3XjN4Zq7oMMsw';
    expect(publicKeyFromDidKey(did).export({ format: 'jwk' }).x).toBe(x.toString('base64url'));
    expect(didKeyFromKey(publicKeyFromDidKey(did))).toBe(did);
  });

  it('refuses identifiers that are not Ed25519 did:keys', () => {
    expect(() => publicKeyFromDidKey('did:web:example')).toThrow(InvalidDidKeyError);
    expect(() => publicKeyFromDidKey('did:key:z0OIl')).toThrow(/not base58btc/);
    // A secp256k1 did:key (multicodec 0xe7): right syntax, wrong key type.
    expect(() => publicKeyFromDidKey('did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme')).toThrow(
      /not an Ed25519 did:key/,
    );
  });
});

describe('signedPayload', () => {
  it('covers id, kind, timestamp, source, parent, text and hashes of tool arguments, in canonical JSON', () => {
    const payload = signedPayload(actionEvent('{"command": "ls", "timeout": 5}'));
    expect(payload).toMatchObject({
      v: 'x-event-sig-v1',
      id: 'action-1',
      kind: 'ActionEvent',
      timestamp: '2026-11-21T10:00:01.000000',
      source: 'agent',
      parent_id: '',
      content_text: 'let me look',
      tool_calls: [
        { tool_call_id: 'call_1', tool_name: 'terminal', args_hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
      ],
      event_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // Argument spacing and key order do not change the hash: the arguments are hashed as canonical JSON.
    expect(signedPayload(actionEvent('{"timeout":5,"command":"ls"}')).tool_calls).toEqual(payload.tool_calls);
    expect(signedPayload(actionEvent('{"command":"rm -rf /"}')).tool_calls[0]!.args_hash).not.toBe(
      payload.tool_calls[0]!.args_hash,
    );
    expect(canonicalJson({ b: 1, a: [{ d: null, c: 'é' }], u: undefined })).toBe('{"a":[{"c":"é","d":null}],"b":1}');
  });
});

describe('signing events', () => {
  it('verifies a signature, and not once the event or the signature changed', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const event = userMessageEvent('hello', 'm-1');
    const record = signEvent(event, privateKey);
    expect(record.signer).toBe(didKeyFromKey(privateKey));
    expect(verifySignature(event, record)).toBe(true);
    expect(verifySignature(userMessageEvent('hullo', 'm-1'), record)).toBe(false);
    const flipped = `${record.signature[0] === 'A' ? 'B' : 'A'}${record.signature.slice(1)}`;
    expect(verifySignature(event, { ...record, signature: flipped })).toBe(false);
    const other = generateKeyPairSync('ed25519').privateKey;
    expect(verifySignature(event, { ...record, signer: didKeyFromKey(other) })).toBe(false);
  });

  it('refuses a key that is not an Ed25519 private key', () => {
    const { publicKey } = generateKeyPairSync('ed25519');
    expect(() => signEvent(userMessageEvent('x'), publicKey)).toThrow(InvalidSigningKeyError);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    expect(() => createSigningEventLog({} as never, { store: {} as never, dir: 'events', signer: rsa })).toThrow(
      /Ed25519 private key, not an RSA private key$/,
    );
  });
});

describe('a signing event log on the local filesystem', () => {
  async function signedLog() {
    const root = await tempRoot();
    const store = createLocalFileStore({ root, durability: 'none' });
    const agentKey = generateKeyPairSync('ed25519').privateKey;
    const approverKey = generateKeyPairSync('ed25519').privateKey;
    const inner = await EventLog.open(store);
    const log = createSigningEventLog(inner, {
      store,
      dir: inner.dir,
      signer: (event) => (event.source === 'user' ? approverKey : agentKey),
    });
    await log.append(userMessageEvent('please list', 'u-1'));
    await log.append(actionEvent('{"command":"ls"}'));
    await log.appendMany!([userMessageEvent('one', 'u-2'), userMessageEvent('two', 'u-3')]);
    return { root, store, log, inner, agentKey, approverKey };
  }

  it("signs every event, each by its own signer, and leaves the event files in the reference's format", async () => {
    const { root, store, log, agentKey, approverKey } = await signedLog();
    const report = await verifyEventSignatures(log, log);
    expect(report).toMatchObject({ status: 'verified', length: 4, signed: 4, unsigned: 0, problem: undefined });
    expect(report.signers).toEqual([
      { did: didKeyFromKey(approverKey), events: 3, firstIndex: 0 },
      { did: didKeyFromKey(agentKey), events: 1, firstIndex: 1 },
    ]);
    expect(await isSigned(await log.get(1), log)).toBe(true);
    // The event files hold the events exactly, nothing more: signatures live in events/.chain/signatures/.
    const files = (await readdir(join(root, 'events'))).filter((name) => name.startsWith('event-'));
    expect(files).toHaveLength(4);
    for (const name of files) {
      const json = JSON.parse(await readFile(join(root, 'events', name), 'utf8'));
      expect(Object.keys(json).filter((key) => /sign|did/.test(key))).toEqual([]);
    }
    expect(await store.exists(signatureRecordPath('events', 'u-1'))).toBe(true);
  });

  it('reports an event whose content was changed after it was signed, by index and signer', async () => {
    const { root, store, approverKey } = await signedLog();
    const events = join(root, 'events');
    const name = (await readdir(events)).find((file) => file.startsWith('event-00002-'))!;
    const text = await readFile(join(events, name), 'utf8');
    await writeFile(join(events, name), text.replace('"text":"one"', '"text":"ONE"'));
    const reopened = await EventLog.open(store);
    const report = await verifyEventSignatures(reopened, reopened);
    expect(report.status).toBe('invalid');
    expect(report.problem).toMatchObject({ kind: 'altered', index: 2, id: 'u-2', signer: didKeyFromKey(approverKey) });
    expect(await isSigned(await reopened.get(2), reopened)).toBe(false);
  });

  it('reports a signature that was tampered with, and a record that is not one', async () => {
    const { root, store } = await signedLog();
    const path = join(root, signatureRecordPath('events', 'action-1'));
    const record = JSON.parse(await readFile(path, 'utf8'));
    record.signature = `${record.signature[0] === 'A' ? 'B' : 'A'}${record.signature.slice(1)}`;
    await writeFile(path, JSON.stringify(record));
    const reopened = await EventLog.open(store);
    expect((await verifyEventSignatures(reopened, reopened)).problem).toMatchObject({
      kind: 'bad-signature',
      index: 1,
      id: 'action-1',
    });
    await writeFile(path, '{"v":1}');
    expect((await verifyEventSignatures(reopened, reopened)).problem).toMatchObject({ kind: 'unreadable', index: 1 });
  });

  it('reports the last event incomplete, not verified, once its signature record is deleted', async () => {
    const { root, store } = await signedLog();
    await rm(join(root, signatureRecordPath('events', 'u-3')));
    const reopened = await EventLog.open(store);
    expect(await verifyEventSignatures(reopened, reopened)).toMatchObject({
      status: 'incomplete',
      require: 'after-first-signed',
      signed: 3,
      unsigned: 1,
      firstUnsigned: 3,
      unsignedPrefix: 0,
      missing: { index: 3, id: 'u-3', message: expect.stringContaining('event 3 (id u-3) has no signature record') },
      problem: undefined,
    });
    // Only a caller that signs some events on purpose asks for no requirement: then it is counted, not failed.
    expect(await verifyEventSignatures(reopened, reopened, { require: 'none' })).toMatchObject({
      status: 'verified',
      require: 'none',
      unsigned: 1,
      missing: undefined,
    });
  });
});

const fixturesDir = fileURLToPath(new URL('./__fixtures__/openhands/', import.meta.url));

describe('conversations the Python reference wrote', () => {
  it('load as unsigned, and the events x appends after them are signed', async () => {
    const root = await tempRoot();
    await cp(join(fixturesDir, '03_parallel_tool_calls'), root, { recursive: true });
    const store = createLocalFileStore({ root, durability: 'none' });
    const inner = await EventLog.open(store);
    const before = inner.length;
    expect(await verifyEventSignatures(inner, inner)).toMatchObject({ status: 'unsigned', unsigned: before });
    const key = generateKeyPairSync('ed25519').privateKey;
    const log = createSigningEventLog(inner, { store, dir: inner.dir, signer: key });
    await log.append(userMessageEvent('continued by x'));
    expect(await verifyEventSignatures(log, log)).toMatchObject({
      status: 'verified',
      signed: 1,
      unsigned: before,
      firstUnsigned: 0,
      unsignedPrefix: before,
      missing: undefined,
      signers: [{ did: didKeyFromKey(key), events: 1, firstIndex: before }],
    });
  });
});
