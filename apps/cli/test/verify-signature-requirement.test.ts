// `x verify --require-signatures`: by default an event after the first signed one without a signature (its record
// deleted, or appended by a run without --signing-key) fails with exit code 5, naming the event; the events of a
// conversation from before it was signed are allowed unless every event must be signed.
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { didKeyFromKey } from '@x/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

const home = tempDir();
afterAll(() => home.remove());
const env = { X_HOME: home.path };
const keyFile = join(home.path, 'signing.pem');
const conversations = join(home.path, 'conversations');
let did: string;

beforeAll(() => {
  writeFileSync(keyFile, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));
  did = didKeyFromKey(createPrivateKey(readFileSync(keyFile, 'utf8')));
});

/** The ids of a conversation directory's events in log order, from their file names. */
function eventIds(location: string): string[] {
  const names = readdirSync(join(location, 'events'))
    .filter((name) => name.startsWith('event-'))
    .sort();
  return names.map((name) => name.slice('event-00000-'.length, -'.json'.length));
}

async function run(args: string[]): Promise<void> {
  const result = await runCli(['run', '--demo', ...args], { env });
  expect(result.code, result.stderr).toBe(0);
}

describe('x verify of a signed conversation whose last signature records were deleted', () => {
  it('fails with exit code 5 naming the first event without a record; passes with --require-signatures none', async () => {
    await run(['--signing-key', keyFile]);
    const signed = join(conversations, readdirSync(conversations)[0]!);
    const copy = join(home.path, 'tail-deleted');
    cpSync(signed, copy, { recursive: true });
    const ids = eventIds(copy);
    const tail = ids.length - 2;
    for (const id of ids.slice(tail)) rmSync(join(copy, 'events', '.chain', 'signatures', `${id}.json`));

    const text = await runCli(['verify', copy], { env });
    expect(text.code).toBe(5);
    expect(text.stdout).toContain(
      `UNSIGNED at index ${tail} (id ${ids[tail]}): event ${tail} (id ${ids[tail]}) has no signature record, ` +
        'though event 0 before it is signed (--require-signatures after-first-signed)',
    );
    expect(text.stdout).not.toContain('signatures valid');
    // The chain itself is intact: only signature records were removed.
    expect(text.stdout).toMatch(/verified: \d+ events, chained from index 0/);

    const json = await runCli(['verify', copy, '--json'], { env });
    expect(json.code).toBe(5);
    expect(JSON.parse(json.stdout).signatures).toMatchObject({
      status: 'incomplete',
      require: 'after-first-signed',
      signed: tail,
      unsigned: 2,
      missing: { index: tail, id: ids[tail] },
    });

    const relaxed = await runCli(['verify', copy, '--require-signatures', 'none'], { env });
    expect(relaxed.code).toBe(0);
    expect(relaxed.stdout).toContain(
      `signatures valid: ${tail} of ${ids.length} events signed (2 unsigned, the first at index ${tail})`,
    );
  }, 120_000);

  it('refuses a requirement it does not know as a usage error', async () => {
    const result = await runCli(['verify', home.path, '--require-signatures', 'every'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--require-signatures');
  });
});

describe('x verify of a conversation resumed with --signing-key, then without', () => {
  let llm: ScriptedLLMServer;
  beforeAll(async () => {
    llm = await startScriptedLLMServer();
  });
  afterAll(async () => {
    await llm.close();
  });

  /** One turn of `x run` against the scripted model, in `workspace`, with `args` (the task, --resume, a key). */
  async function turn(workspace: string, args: string[]): Promise<string> {
    llm.push({ content: 'Noted.' });
    const llmEnv = { ...env, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: llm.baseURL };
    const result = await runCli(['run', '--model', 'scripted-model', ...args], { env: llmEnv, cwd: workspace });
    expect(result.code, result.stderr).toBe(0);
    return /^Conversation ([0-9a-f-]{36})$/m.exec(result.stdout)?.[1] ?? '';
  }

  it('is verified with the earlier events as an unsigned prefix, then fails at the first event appended unsigned', async () => {
    const workspace = tempDir();
    const data = join(home.path, 'mid-way');
    const id = await turn(workspace.path, ['--data-dir', data, 'unsigned first']);
    const location = join(data, readdirSync(data)[0]!);
    expect(location.replace(/-/g, '')).toContain(id.replace(/-/g, ''));
    const prefix = eventIds(location).length;
    await turn(workspace.path, ['--data-dir', data, '--resume', id, '--signing-key', keyFile, 'now signed']);
    const signedLength = eventIds(location).length;
    expect(signedLength).toBeGreaterThan(prefix);

    const text = await runCli(['verify', location], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      `signatures valid: ${signedLength - prefix} of ${signedLength} events signed ` +
        `(events 0–${prefix - 1} unsigned, before the first signed one)`,
    );
    expect(text.stdout).toContain(`signer ${did}: ${signedLength - prefix} event(s) from index ${prefix}`);
    const all = await runCli(['verify', location, '--require-signatures', 'all', '--json'], { env });
    expect(all.code).toBe(5);
    expect(JSON.parse(all.stdout).signatures).toMatchObject({
      status: 'incomplete',
      require: 'all',
      unsignedPrefix: prefix,
      missing: { index: 0, id: eventIds(location)[0] },
    });

    await turn(workspace.path, ['--data-dir', data, '--resume', id, 'no longer signed']);
    const ids = eventIds(location);
    const after = await runCli(['verify', location, '--json'], { env });
    expect(after.code).toBe(5);
    expect(JSON.parse(after.stdout).signatures).toMatchObject({
      status: 'incomplete',
      unsignedPrefix: prefix,
      missing: { index: signedLength, id: ids[signedLength] },
    });
    workspace.remove();
  }, 120_000);
});
