import { generateKeyPairSync } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

const FIXTURE = fileURLToPath(
  new URL('../../../packages/events/test/__fixtures__/openhands/01_simple_message_reply/', import.meta.url),
);
const home = tempDir();
afterAll(() => home.remove());
const env = { X_HOME: home.path };
let location: string;

beforeAll(async () => {
  const demo = await runCli(['run', '--demo'], { env });
  expect(demo.code).toBe(0);
  const conversations = join(home.path, 'conversations');
  location = join(conversations, readdirSync(conversations)[0]!);
});

describe('x verify', () => {
  it('verifies a conversation x wrote, then signs its head and checks the signature', async () => {
    const plain = await runCli(['verify', location], { env });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/verified: \d+ events, chained from index 0/);

    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const keyFile = join(home.path, 'key.pem');
    const pubFile = join(home.path, 'key.pub');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(pubFile, publicKey.export({ type: 'spki', format: 'pem' }));
    const signed = await runCli(['verify', location, '--sign', keyFile], { env });
    expect(signed.code).toBe(0);
    expect(signed.stdout).toMatch(/signed the head: \d+ events/);
    const checked = await runCli(['verify', location, '--public-key', pubFile, '--json'], { env });
    expect(checked.code).toBe(0);
    expect(JSON.parse(checked.stdout)).toMatchObject({ status: 'verified', signature: 'valid' });
  });

  it('counts event files a power loss left unfinished, checked from their claims (exit 0)', async () => {
    const copy = join(home.path, 'unfinished-copy');
    cpSync(location, copy, { recursive: true });
    const events = join(copy, 'events');
    const name = readdirSync(events).find((file) => file.startsWith('event-00002-'))!;
    writeFileSync(join(events, name), readFileSync(join(events, name)).subarray(0, 10));
    const result = await runCli(['verify', copy], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('1 event file(s) not written yet or left unfinished (index 2)');
    const json = await runCli(['verify', copy, '--json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'verified', fromClaims: [2] });
  });

  it('names the altered event by index and id, exit code 5', async () => {
    const events = join(location, 'events');
    const name = readdirSync(events).find((file) => file.startsWith('event-00001-'))!;
    const id = name.slice('event-00001-'.length, -'.json'.length);
    const text = readFileSync(join(events, name), 'utf8');
    writeFileSync(join(events, name), text.replace('"source":"', '"source": "'));
    const result = await runCli(['verify', location], { env });
    expect(result.code).toBe(5);
    expect(result.stdout).toContain(`TAMPERED altered at index 1 (id ${id})`);
    const json = await runCli(['verify', location, '--json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'tampered', problem: { kind: 'altered', index: 1, id } });
  });

  it('reports a conversation the Python reference wrote as unchained (exit 0)', async () => {
    const copy = join(home.path, 'reference-copy');
    cpSync(FIXTURE, copy, { recursive: true });
    const result = await runCli(['verify', copy], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('unchained: 3 events');
  });

  it('rejects a key file that is not an Ed25519 key as a usage error', async () => {
    const bad = join(home.path, 'bad.pem');
    writeFileSync(bad, 'not a key');
    const result = await runCli(['verify', location, '--public-key', bad], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is not an Ed25519 public key');
  });
});

describe('x replay --check', () => {
  const check = async () => {
    const home2 = tempDir();
    const env2 = { X_HOME: home2.path };
    const demo = await runCli(['run', '--demo'], { env: env2 });
    expect(demo.code).toBe(0);
    const conversations = join(home2.path, 'conversations');
    return { home2, env2, dir: join(conversations, readdirSync(conversations)[0]!) };
  };

  it('fails with a diff at the first request once the recorded system prompt differs from today’s', async () => {
    const { home2, env2, dir } = await check();
    try {
      // As if the agent's system prompt had changed since the recording: edit the recorded one.
      const events = join(dir, 'events');
      const name = readdirSync(events).find((file) => file.startsWith('event-00000-'))!;
      const text = readFileSync(join(events, name), 'utf8');
      const recorded = JSON.parse(text) as { system_prompt: { text: string } };
      const firstLine = recorded.system_prompt.text.split('\n')[0]!;
      recorded.system_prompt.text = recorded.system_prompt.text.replace(firstLine, 'An older system prompt.');
      writeFileSync(join(events, name), JSON.stringify(recorded));
      const failed = await runCli(['replay', dir, '--check'], { env: env2 });
      expect(failed.code).toBe(1);
      expect(failed.stdout).toContain('replay check failed after 0 of 3 matching requests');
      expect(failed.stdout).toContain('at messages[0].content[0].text');
      expect(failed.stdout).toContain('  - An older system prompt.');
      expect(failed.stdout).toContain(`  + ${firstLine}`);
    } finally {
      home2.remove();
    }
  });
});

describe('x verify --database-url', () => {
  it('verifies a conversation kept in PostgreSQL and names the altered row, exit code 5', async () => {
    const { startPostgresServer, createTestDatabase } = await import('@x/store-postgres/testing');
    const { connectPostgres, PostgresEventLog } = await import('@x/store-postgres');
    const { contractMessageEvent } = await import('@x/store/testing');
    const server = await startPostgresServer();
    try {
      const database = await createTestDatabase(server.url);
      const connection = await connectPostgres({ url: database.url });
      const id = '3f2c1a9e-0000-4000-8000-000000000001';
      const log = await PostgresEventLog.open(connection, { logId: id });
      const ids: string[] = [];
      for (const text of ['one', 'two', 'three']) {
        const event = contractMessageEvent(text);
        await log.append(event);
        ids.push(event.id);
      }
      const ok = await runCli(['verify', id.replace(/-/g, ''), '--database-url', database.url], { env });
      expect(ok.code).toBe(0);
      expect(ok.stdout).toContain('verified: 3 events, chained from index 0');
      expect(ok.stdout).toContain(`conversation ${id}`);

      await connection.query(`UPDATE x_events SET body = replace(body, 'two', 'TWO') WHERE idx = 1`);
      const bad = await runCli(['verify', id, '--database-url', database.url, '--json'], { env });
      expect(bad.code).toBe(5);
      expect(JSON.parse(bad.stdout)).toMatchObject({
        status: 'tampered',
        problem: { kind: 'altered', index: 1, id: ids[1] },
      });
      await connection.close();
      await database.drop();
    } finally {
      await server.stop();
    }
  }, 120_000);
});
