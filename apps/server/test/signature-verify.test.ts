import { generateKeyPairSync } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseEventJson } from '@x/events';
import { didKeyFromKey, signatureRecordPath, signEvent } from '@x/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, removeDir, startTestServer, type TestServer } from './helpers.js';

let server: TestServer;
let id: string;
const key = generateKeyPairSync('ed25519').privateKey;

beforeAll(async () => {
  server = await startTestServer();
  id = await createConversation(server);
  await server.call('POST', `/api/conversations/${id}/events`, { content: [{ type: 'text', text: 'hello' }] });
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

const eventsDir = () => join(server.dataDir, 'conversations', id.replace(/-/g, ''), 'events');

describe('GET /api/conversations/{id}/verify reports per-event signatures', () => {
  it('unsigned at first, then every signer by did:key once the events are signed', async () => {
    const before = await server.call('GET', `/api/conversations/${id}/verify`);
    expect(before.json).toMatchObject({ status: 'verified', signatures: { status: 'unsigned', signed: 0 } });

    // Sign what is on disk as a signing writer would have: one record per event beside the chain records.
    const names = (await readdir(eventsDir())).filter((name) => name.startsWith('event-')).sort();
    for (const name of names) {
      const event = parseEventJson(await readFile(join(eventsDir(), name), 'utf8'));
      await mkdir(join(eventsDir(), '.chain', 'signatures'), { recursive: true });
      await writeFile(
        join(eventsDir(), '..', signatureRecordPath('events', event.id)),
        JSON.stringify(signEvent(event, key)),
      );
    }
    const { status, json } = await server.call('GET', `/api/conversations/${id}/verify`);
    expect(status).toBe(200);
    expect(json).toMatchObject({
      status: 'verified',
      signatures: {
        status: 'verified',
        signed: names.length,
        unsigned: 0,
        signers: [{ did: didKeyFromKey(key), events: names.length, firstIndex: 0 }],
      },
    });
  });

  it('names the first event whose signature was tampered with', async () => {
    const names = (await readdir(eventsDir())).filter((name) => name.startsWith('event-')).sort();
    const eventId = names[1]!.slice('event-00001-'.length, -'.json'.length);
    const path = join(eventsDir(), '.chain', 'signatures', `${eventId}.json`);
    const record = JSON.parse(await readFile(path, 'utf8'));
    record.signature = `${record.signature[0] === 'A' ? 'B' : 'A'}${record.signature.slice(1)}`;
    await writeFile(path, JSON.stringify(record));
    const { status, json } = await server.call('GET', `/api/conversations/${id}/verify`);
    expect(status).toBe(200);
    expect(json).toMatchObject({
      signatures: { status: 'invalid', problem: { kind: 'bad-signature', index: 1, id: eventId } },
    });
  });
});
