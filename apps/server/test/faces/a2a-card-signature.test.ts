// The agent card signed with the Ed25519 key `x verify --sign` uses, checked by `@a2a-js/sdk`'s own verifier
// (JWS over the JCS-canonical card, A2A v1.0 §8.4) with the public key.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AgentCard, verifyAgentCardSignature } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ed25519KeyId, SigningKeyError } from '../../src/faces/a2a/index.js';
import { buildServer } from '../../src/index.js';
import { removeDir, startTestServer, type TestServer, tempDir } from '../helpers.js';

let server: TestServer;
let publicKey: KeyObject;
let keyDir: string;

beforeAll(async () => {
  keyDir = await tempDir();
  const pair = generateKeyPairSync('ed25519');
  publicKey = pair.publicKey;
  const keyPath = join(keyDir, 'key.pem');
  await writeFile(keyPath, pair.privateKey.export({ format: 'pem', type: 'pkcs8' }));
  // With a session key, the card also carries security schemes: more of the card is signed.
  server = await startTestServer({ config: { a2aSigningKey: keyPath, apiKeys: ['card-key'] } });
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
  await removeDir(keyDir);
});

async function card(): Promise<AgentCard> {
  const response = await fetch(`${server.url}/.well-known/agent-card.json`);
  expect(response.status).toBe(200);
  return (await response.json()) as AgentCard;
}

describe('the signed agent card', () => {
  it("verifies with the public key through the SDK's verifier, the key id being the key's thumbprint", async () => {
    const signed = await card();
    expect(signed.signatures).toHaveLength(1);
    const kids: string[] = [];
    await verifyAgentCardSignature(async (kid) => {
      kids.push(kid);
      return publicKey;
    })(signed);
    expect(kids).toEqual([ed25519KeyId(publicKey)]);
    const header = JSON.parse(Buffer.from(signed.signatures[0]?.protected ?? '', 'base64url').toString());
    expect(header).toEqual({ alg: 'EdDSA', kid: ed25519KeyId(publicKey), typ: 'JOSE' });
  });

  it('does not verify once the card is altered, or with another key', async () => {
    const signed = await card();
    const altered = { ...signed, description: 'not what was signed' };
    await expect(verifyAgentCardSignature(async () => publicKey)(altered)).rejects.toThrow('No valid signatures');
    const other = generateKeyPairSync('ed25519').publicKey;
    await expect(verifyAgentCardSignature(async () => other)(signed)).rejects.toThrow('No valid signatures');
  });

  it("is still a card the SDK's client works with", async () => {
    const client = await new ClientFactory().createFromUrl(server.url);
    expect(client).toBeDefined();
  });

  it('refuses to start with a key that is not an Ed25519 private key, naming the file', async () => {
    const rsa = join(keyDir, 'rsa.pem');
    await writeFile(
      rsa,
      generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }),
    );
    const error = await buildServer({ port: 0, dataDir: keyDir, a2aSigningKey: rsa, logLevel: 'silent' }).catch(
      (caught: unknown) => caught,
    );
    expect(SigningKeyError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(rsa);
    expect((error as Error).message).toContain('not Ed25519');
  });
});
