import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

const home = tempDir();
let server: ScriptedLLMServer;
let llmEnv: Record<string, string>;

beforeAll(async () => {
  server = await startScriptedLLMServer();
  llmEnv = { X_HOME: home.path, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.baseURL };
});
afterAll(async () => {
  await server.close();
  home.remove();
});

describe('x run --resume on a conversation whose log lost an event in the middle', () => {
  it('fails naming the gap and the flag, and goes on past it only with --repair-log-gap', async () => {
    const workspace = tempDir();
    server.push({ content: 'First answer.' });
    const first = await runCli(['run', 'Say something', '--model', 'scripted-model'], {
      env: llmEnv,
      cwd: workspace.path,
    });
    expect(first.code, first.stderr).toBe(0);
    const id = /^Conversation ([0-9a-f-]{36})$/m.exec(first.stdout)?.[1] ?? '';
    const events = join(home.path, 'conversations', id.replaceAll('-', ''), 'events');
    const names = readdirSync(events)
      .filter((name) => name.startsWith('event-'))
      .sort();
    expect(names.length).toBeGreaterThan(3);
    // Event 2 lost with its slot claim and its staged body (the file's second name).
    for (const path of [
      join(events, names[2]!),
      join(events, '.slots', names[2]!),
      join(events, '.slots', '00002.json'),
    ]) {
      rmSync(path, { force: true });
    }

    const refused = await runCli(['run', '--resume', id, 'Again'], { env: llmEnv, cwd: workspace.path });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('event 2 is missing from its log');
    expect(refused.stderr).toContain('(conversation_log_gap)');
    expect(refused.stderr).toContain(`x run --resume <id> --repair-log-gap`);
    expect(existsSync(join(events, '..', 'events-past-gap-00002'))).toBe(false);

    const alone = await runCli(['run', 'Again', '--repair-log-gap'], { env: llmEnv, cwd: workspace.path });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--repair-log-gap repairs a saved conversation');

    server.push({ content: 'Second answer.' });
    const repaired = await runCli(['run', '--resume', id, 'Again', '--repair-log-gap'], {
      env: llmEnv,
      cwd: workspace.path,
    });
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stderr).toContain('events-past-gap-00002');
    expect(repaired.stdout).toContain('Second answer.');
    expect(
      readdirSync(join(events, '..', 'events-past-gap-00002')).filter((name) => name.startsWith('event-')),
    ).toEqual(names.slice(3));
  });
});
