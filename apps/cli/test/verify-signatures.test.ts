import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { didKeyFromKey } from '@x/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

const home = tempDir();
afterAll(() => home.remove());
const env = { X_HOME: home.path };
const keyFile = join(home.path, 'signing.pem');
let location: string;
let did: string;

beforeAll(async () => {
  writeFileSync(keyFile, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));
  did = didKeyFromKey(createPrivateKey(readFileSync(keyFile, 'utf8')));
  const run = await runCli(['run', '--demo', '--signing-key', keyFile], { env });
  expect(run.code).toBe(0);
  expect(run.stdout).toContain(`signing as ${did}`);
  const conversations = join(home.path, 'conversations');
  location = join(conversations, readdirSync(conversations)[0]!);
});

/** A copy of the signed conversation to damage. */
function copyOf(name: string): string {
  const copy = join(home.path, name);
  cpSync(location, copy, { recursive: true });
  return copy;
}

describe('x run --signing-key, then x verify', () => {
  it("reports every event signed by the key's did:key, beside the chain", async () => {
    const text = await runCli(['verify', location], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/verified: (\d+) events, chained from index 0/);
    const length = Number(/verified: (\d+) events/.exec(text.stdout)![1]);
    expect(text.stdout).toContain(`signatures valid: ${length} of ${length} events signed`);
    expect(text.stdout).toContain(`signer ${did}: ${length} event(s) from index 0`);
    const json = await runCli(['verify', location, '--json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: 'verified',
      signatures: { status: 'verified', signed: length, unsigned: 0, signers: [{ did, events: length }] },
    });
  });

  it('names the event whose signature was tampered with, exit code 5', async () => {
    const copy = copyOf('bad-signature');
    const events = join(copy, 'events');
    const name = readdirSync(events).find((file) => file.startsWith('event-00001-'))!;
    const id = name.slice('event-00001-'.length, -'.json'.length);
    const path = join(events, '.chain', 'signatures', `${id}.json`);
    const record = JSON.parse(readFileSync(path, 'utf8'));
    record.signature = `${record.signature[0] === 'A' ? 'B' : 'A'}${record.signature.slice(1)}`;
    writeFileSync(path, JSON.stringify(record));
    const result = await runCli(['verify', copy], { env });
    expect(result.code).toBe(5);
    expect(result.stdout).toContain(`BAD SIGNATURE bad-signature at index 1 (id ${id})`);
    // The chain itself is intact: only the signature is wrong.
    expect(result.stdout).toMatch(/verified: \d+ events, chained from index 0/);
  });

  it('names the event whose content changed after it was signed, exit code 5', async () => {
    const copy = copyOf('altered-content');
    const events = join(copy, 'events');
    const name = readdirSync(events).find((file) => file.startsWith('event-00001-'))!;
    const id = name.slice('event-00001-'.length, -'.json'.length);
    const event = JSON.parse(readFileSync(join(events, name), 'utf8'));
    event.llm_message.content[0].text = 'a different task';
    writeFileSync(join(events, name), JSON.stringify(event));
    const result = await runCli(['verify', copy, '--json'], { env });
    expect(result.code).toBe(5);
    expect(JSON.parse(result.stdout).signatures).toMatchObject({
      status: 'invalid',
      problem: { kind: 'altered', index: 1, id, signer: did },
    });
  });

  it('refuses a signing key that is not an Ed25519 private key as a usage error', async () => {
    const publicOnly = join(home.path, 'public.pem');
    writeFileSync(publicOnly, generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }));
    const result = await runCli(['run', '--demo', '--signing-key', publicOnly], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is not an Ed25519 private key in PEM form');
  });
});

describe('x verify --database-url, signatures', () => {
  it('checks the signatures kept in the files table beside a conversation kept in PostgreSQL', async () => {
    const { startPostgresServer, createTestDatabase } = await import('@x/store-postgres/testing');
    const { connectPostgres, createPostgresFileStore, PostgresEventLog } = await import('@x/store-postgres');
    const { contractMessageEvent } = await import('@x/store/testing');
    const { createSigningEventLog } = await import('@x/store');
    const server = await startPostgresServer();
    try {
      const database = await createTestDatabase(server.url);
      const connection = await connectPostgres({ url: database.url });
      const id = '3f2c1a9e-0000-4000-8000-000000000002';
      const key = generateKeyPairSync('ed25519').privateKey;
      const log = createSigningEventLog(await PostgresEventLog.open(connection, { logId: id }), {
        store: createPostgresFileStore(connection),
        dir: `${id.replace(/-/g, '')}/events`,
        signer: key,
      });
      for (const text of ['one', 'two']) await log.append(contractMessageEvent(text));
      const ok = await runCli(['verify', id, '--database-url', database.url, '--json'], { env });
      expect(ok.code).toBe(0);
      expect(JSON.parse(ok.stdout).signatures).toMatchObject({
        status: 'verified',
        signed: 2,
        signers: [{ did: didKeyFromKey(key), events: 2, firstIndex: 0 }],
      });
      await connection.query(`UPDATE x_events SET body = replace(body, 'two', 'TWO') WHERE idx = 1`);
      const bad = await runCli(['verify', id, '--database-url', database.url, '--json'], { env });
      expect(bad.code).toBe(5);
      expect(JSON.parse(bad.stdout).signatures).toMatchObject({
        status: 'invalid',
        problem: { kind: 'altered', index: 1 },
      });
      await connection.close();
      await database.drop();
    } finally {
      await server.stop();
    }
  }, 120_000);
});
