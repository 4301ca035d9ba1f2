import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signChainHead } from '../src/chain/sign-chain-head.js';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { InvalidPathError } from '../src/errors/invalid-path-error.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { userMessageEvent } from './helpers/events.js';

// The three entry points that take a log's `dir` (opening it, verifying its chain, signing its head) refuse the same
// directories with the same `InvalidPathError`, named as given: a verifier given `''` must not look for a log at the
// store's root and report what it finds there (nothing: an empty, "unchained" log) as the log's state.

const { privateKey } = generateKeyPairSync('ed25519');

const entryPoints: { name: string; call(store: FileStore, dir: string): Promise<unknown> }[] = [
  { name: 'EventLog.open', call: (store, dir) => EventLog.open(store, { dir }) },
  { name: 'verifyEventChain', call: (store, dir) => verifyEventChain(store, { dir }) },
  { name: 'signChainHead', call: (store, dir) => signChainHead(store, { dir, privateKey }) },
];

const badDirectories = [
  { dir: '', reason: 'a file path must not be empty' },
  { dir: '/events', reason: 'is absolute (store paths are relative to the store root)' },
  { dir: 'a/../events', reason: 'contains a ".." segment' },
  { dir: 'a//events', reason: 'contains an empty segment ("//")' },
  { dir: 'events/', reason: 'ends with "/" (only a list prefix may)' },
];

describe.each(entryPoints)('the dir option of $name', ({ call }) => {
  it.each(badDirectories)('refuses $dir with the InvalidPathError EventLog.open throws', async ({ dir, reason }) => {
    const store = createMemoryFileStore();
    await store.write('event-00000-a.json', '{}');
    const error = await call(store, dir).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidPathError);
    expect(error).toMatchObject({ code: 'invalid_path', path: dir, reason });
    // Nothing was written (a signed head at the store's root, a log's files).
    expect(await store.list('')).toEqual(['event-00000-a.json']);
  });
});

describe('a valid dir', () => {
  it('names the same log for all three', async () => {
    const store = createMemoryFileStore();
    const log = await EventLog.open(store, { dir: 'logs/one' });
    await log.append(userMessageEvent('m0'));
    await log.close();

    expect(await verifyEventChain(store, { dir: 'logs/one' })).toMatchObject({ status: 'verified', length: 1 });
    expect(await signChainHead(store, { dir: 'logs/one', privateKey })).toMatchObject({ length: 1 });
    expect(await store.exists('logs/one/.chain/signed-head.json')).toBe(true);
  });
});
