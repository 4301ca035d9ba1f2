// `?require_signatures=` on the verify route: by default an unsigned event after a signed one (its record deleted,
// or appended by a server that no longer signs) is `incomplete`, naming the event; events from before the server
// signed are an allowed unsigned prefix unless every event must be signed.
import { generateKeyPairSync } from 'node:crypto';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { didKeyFromKey } from '@x/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createConversation,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  tempDir,
  waitForIdle,
} from './helpers.js';

const key = generateKeyPairSync('ed25519').privateKey;
let keyDir: string;
let keyPath: string;
const dataDirs: string[] = [];

beforeAll(async () => {
  keyDir = await tempDir();
  keyPath = join(keyDir, 'server-key.pem');
  await writeFile(keyPath, key.export({ type: 'pkcs8', format: 'pem' }) as string);
});
afterAll(async () => {
  for (const dir of [keyDir, ...dataDirs]) await removeDir(dir);
});

/** A server on `dataDir` (a new one when not given), signing with the key when `signing` is true. */
async function serverOn(dataDir: string | undefined, signing: boolean): Promise<TestServer> {
  const server = await startTestServer({
    ...(dataDir === undefined ? {} : { dataDir }),
    ...(signing ? { config: { signingKey: keyPath } } : {}),
  });
  if (dataDir === undefined) dataDirs.push(server.dataDir);
  return server;
}

/** The ids of the conversation's events in log order, from their file names (`event-00007-<id>.json`). */
async function eventIds(server: TestServer, id: string): Promise<string[]> {
  const dir = join(server.dataDir, 'conversations', id.replace(/-/g, ''), 'events');
  const names = (await readdir(dir)).filter((name) => name.startsWith('event-')).sort();
  return names.map((name) => name.slice('event-00000-'.length, -'.json'.length));
}

async function signatures(server: TestServer, id: string, query = ''): Promise<Record<string, unknown>> {
  const { status, json } = await server.call('GET', `/api/conversations/${id}/verify${query}`);
  expect(status).toBe(200);
  return (json as { signatures: Record<string, unknown> }).signatures;
}

const say = (server: TestServer, id: string, text: string) =>
  server.call('POST', `/api/conversations/${id}/events`, { content: [{ type: 'text', text }] });

describe('a signed conversation whose last signature records were deleted', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serverOn(undefined, true);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('is incomplete, naming the first event without its record; verified only when no event must be signed', async () => {
    server.llm.push(finishReply('Signed and done.'));
    const id = await createConversation(server, {
      initial_message: { content: [{ type: 'text', text: 'go' }], run: true },
    });
    await waitForIdle(server, id);
    expect(await signatures(server, id)).toMatchObject({ status: 'verified', unsigned: 0 });

    const ids = await eventIds(server, id);
    const records = join(server.dataDir, 'conversations', id.replace(/-/g, ''), 'events', '.chain', 'signatures');
    const tail = ids.length - 2;
    for (const eventId of ids.slice(tail)) await rm(join(records, `${eventId}.json`));

    expect(await signatures(server, id)).toMatchObject({
      status: 'incomplete',
      require: 'after-first-signed',
      signed: tail,
      unsigned: 2,
      unsignedPrefix: 0,
      missing: { index: tail, id: ids[tail] },
    });
    expect(await signatures(server, id, '?require_signatures=all')).toMatchObject({
      status: 'incomplete',
      require: 'all',
      missing: { index: tail, id: ids[tail] },
    });
    expect(await signatures(server, id, '?require_signatures=none')).toMatchObject({
      status: 'verified',
      require: 'none',
      unsigned: 2,
    });
  });

  it('refuses a requirement it does not know as a validation error (422), naming the parameter', async () => {
    const id = await createConversation(server);
    const { status, json } = await server.call('GET', `/api/conversations/${id}/verify?require_signatures=every`);
    expect(status).toBe(422);
    expect(JSON.stringify(json)).toContain('require_signatures');
  });
});

describe('a conversation whose server turned signing on, then off again', () => {
  it('is verified with an unsigned prefix, then incomplete at the first event appended unsigned', async () => {
    const unsigned = await serverOn(undefined, false);
    const dataDir = unsigned.dataDir;
    const id = await createConversation(unsigned);
    await say(unsigned, id, 'before signing');
    const prefix = (await eventIds(unsigned, id)).length;
    await unsigned.stop();

    const signing = await serverOn(dataDir, true);
    await say(signing, id, 'signed');
    const signedLength = (await eventIds(signing, id)).length;
    expect(signedLength).toBeGreaterThan(prefix);
    expect(await signatures(signing, id)).toMatchObject({
      status: 'verified',
      unsigned: prefix,
      unsignedPrefix: prefix,
      signers: [{ did: didKeyFromKey(key), firstIndex: prefix }],
    });
    const all = await signatures(signing, id, '?require_signatures=all');
    expect(all).toMatchObject({ status: 'incomplete', missing: { index: 0, id: (await eventIds(signing, id))[0] } });
    await signing.stop();

    const stopped = await serverOn(dataDir, false);
    await say(stopped, id, 'no longer signed');
    const ids = await eventIds(stopped, id);
    expect(ids.length).toBeGreaterThan(signedLength);
    expect(await signatures(stopped, id)).toMatchObject({
      status: 'incomplete',
      unsignedPrefix: prefix,
      missing: { index: signedLength, id: ids[signedLength] },
    });
    await stopped.stop();
  });
});
