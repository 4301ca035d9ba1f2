import { createHash, generateKeyPairSync } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createLocalFileStore, signChainHead } from '@x/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, removeDir, startTestServer, type TestServer } from './helpers.js';

let server: TestServer;
let id: string;

beforeAll(async () => {
  server = await startTestServer();
  id = await createConversation(server);
  for (const text of ['first', 'second', 'third']) {
    await server.call('POST', `/api/conversations/${id}/events`, { content: [{ type: 'text', text }] });
  }
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

const conversationDir = () => join(server.dataDir, 'conversations', id.replace(/-/g, ''));

describe('GET /api/conversations/{id}/verify', () => {
  it('reports the chain verified, then the signed head checked against the given public key', async () => {
    const { status, json } = await server.call('GET', `/api/conversations/${id}/verify`);
    expect(status).toBe(200);
    expect(json).toMatchObject({ status: 'verified', chainedFrom: 0, signature: 'not-checked' });
    const length = (json as { length: number }).length;
    expect(length).toBeGreaterThanOrEqual(4);

    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const store = createLocalFileStore({ root: conversationDir(), durability: 'none' });
    await signChainHead(store, { privateKey });
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const signed = await server.call('GET', `/api/conversations/${id}/verify?public_key=${encodeURIComponent(pem)}`);
    expect(signed.json).toMatchObject({ status: 'verified', signature: 'valid', signedLength: length });
  });

  it('rejects a public key that is not Ed25519 with 400', async () => {
    const { status } = await server.call('GET', `/api/conversations/${id}/verify?public_key=nonsense`);
    expect(status).toBe(400);
  });

  it('names the first altered event by index and id', async () => {
    const events = join(conversationDir(), 'events');
    const name = (await readdir(events)).find((file) => file.startsWith('event-00002-'))!;
    const text = await readFile(join(events, name), 'utf8');
    await writeFile(join(events, name), text.replace('second', 'SECOND'));
    const { status, json } = await server.call('GET', `/api/conversations/${id}/verify`);
    expect(status).toBe(200);
    expect(json).toMatchObject({
      status: 'tampered',
      problem: { kind: 'altered', index: 2, id: name.slice('event-00002-'.length, -'.json'.length) },
    });
  });
});

describe('GET /api/conversations/{id}/verify on a live conversation cut short or rewritten at its end', () => {
  const lastFiles = async (dir: string) => {
    const names = (await readdir(join(dir, 'events'))).filter((name) => name.startsWith('event-')).sort();
    const index = names.length - 1;
    return {
      index,
      file: join(dir, 'events', names[index]!),
      claim: join(dir, 'events', '.slots', `${String(index).padStart(5, '0')}.json`),
    };
  };

  it('names the first missing index when the last event and its claim are deleted', async () => {
    const live = await createConversation(server);
    await server.call('POST', `/api/conversations/${live}/events`, { content: [{ type: 'text', text: 'one' }] });
    const dir = join(server.dataDir, 'conversations', live.replace(/-/g, ''));
    const { index, file, claim } = await lastFiles(dir);
    await rm(file);
    await rm(claim);
    const { status, json } = await server.call('GET', `/api/conversations/${live}/verify`);
    expect(status).toBe(200);
    expect(json).toMatchObject({ status: 'tampered', problem: { kind: 'removed', index } });
  });

  it('names the last event when it is rewritten with a recomputed claim', async () => {
    const live = await createConversation(server);
    await server.call('POST', `/api/conversations/${live}/events`, { content: [{ type: 'text', text: 'two' }] });
    const dir = join(server.dataDir, 'conversations', live.replace(/-/g, ''));
    const { index, file, claim } = await lastFiles(dir);
    const forged = (await readFile(file, 'utf8')).replace('two', 'TWO');
    const text = await readFile(claim, 'utf8');
    const header = JSON.parse(text.slice(0, text.indexOf('\n'))) as { prev: string | null; hash: string };
    header.hash = createHash('sha256')
      .update(`x-chain-v1\n${index}\n${header.prev ?? ''}\n`)
      .update(forged)
      .digest('hex');
    await writeFile(claim, `${JSON.stringify(header)}\n${forged}`);
    await writeFile(file, forged);
    const { json } = await server.call('GET', `/api/conversations/${live}/verify`);
    expect(json).toMatchObject({ status: 'tampered', problem: { kind: 'altered', index } });
  });
});
