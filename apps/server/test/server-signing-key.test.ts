import { generateKeyPairSync } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
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

let server: TestServer;
let keyDir: string;
const key = generateKeyPairSync('ed25519').privateKey;

beforeAll(async () => {
  keyDir = await tempDir();
  const keyPath = join(keyDir, 'server-key.pem');
  await writeFile(keyPath, key.export({ type: 'pkcs8', format: 'pem' }) as string);
  server = await startTestServer({ config: { signingKey: keyPath } });
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
  await removeDir(keyDir);
});

describe("the server's signingKey", () => {
  it('signs every event of the conversations it runs; the verify route names its did:key', async () => {
    server.llm.push(finishReply('Signed and done.'));
    const id = await createConversation(server, {
      initial_message: { content: [{ type: 'text', text: 'go' }], run: true },
    });
    await waitForIdle(server, id);
    const { status, json } = await server.call('GET', `/api/conversations/${id}/verify`);
    expect(status).toBe(200);
    const signatures = (
      json as { signatures: { status: string; signed: number; unsigned: number; signers: { did: string }[] } }
    ).signatures;
    expect(signatures.status).toBe('verified');
    expect(signatures.unsigned).toBe(0);
    expect(signatures.signed).toBeGreaterThan(3);
    expect(signatures.signers.map((signer) => signer.did)).toEqual([didKeyFromKey(key)]);
  });
});
