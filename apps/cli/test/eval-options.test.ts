import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ScriptedReply, type ScriptedRequestBody, startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

const home = tempDir();
const env = { X_HOME: home.path };
afterAll(() => home.remove());

describe('x eval, counts out of range', () => {
  it('exits 2 naming --runs when it asks for more runs than a case may have, before anything runs', async () => {
    const suite = join(home.path, 'recorded.yaml');
    // A recorded case that does not exist: a run would fail to find it, so only the option check speaks.
    writeFileSync(suite, 'cases:\n  - id: old\n    conversation: ./gone\n    scorers: [no-errors]\n');
    const result = await runCli(['eval', suite, '--runs', '5000'], { env, timeoutMs: 120_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('option runs: expected a whole number from 1 to 1000, got 5000');
    expect(result.stderr).toContain('(invalid_eval_option)');
  });

  it('refuses --runs 0 at the command line', async () => {
    const suite = join(home.path, 'zero.yaml');
    writeFileSync(suite, 'cases:\n  - id: old\n    conversation: ./gone\n    scorers: [no-errors]\n');
    const result = await runCli(['eval', suite, '--runs', '0'], { env, timeoutMs: 120_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("expected a whole number ≥ 1, got '0'");
  });
});

describe('x eval --scorer-timeout', () => {
  it('refuses a value that is not a number of seconds above 0, naming it (exit 2)', async () => {
    const suite = join(home.path, 'timeout-values.yaml');
    writeFileSync(suite, 'cases:\n  - id: old\n    conversation: ./gone\n    scorers: [no-errors]\n');
    for (const value of ['0', '-1', 'soon', '0.0', 'Infinity']) {
      const result = await runCli(['eval', suite, '--scorer-timeout', value], { env, timeoutMs: 120_000 });
      expect(result.code, value).toBe(2);
      expect(result.stderr).toContain(
        `option '--scorer-timeout <seconds>' argument '${value}' is invalid. expected a number of seconds above 0 such as 300 or 0.5, got '${value}'.`,
      );
    }
  });

  it('fails the run of a scorer that takes longer than it, naming the limit', async () => {
    // The judge never answers; the agent finishes at once.
    const reply = (body: ScriptedRequestBody): ScriptedReply => {
      const messages = body.messages as { content: unknown }[];
      if (JSON.stringify(messages[0]?.content).includes('You grade the work of an AI agent')) return { hang: true };
      return { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] };
    };
    const server = await startScriptedLLMServer(reply);
    try {
      const suite = join(home.path, 'timeout.json');
      writeFileSync(
        suite,
        JSON.stringify({
          cases: [{ id: 'judged', task: 'Say done', scorers: [{ type: 'llm-judge', rubric: 'Said done.' }] }],
        }),
      );
      const result = await runCli(['eval', suite, '--model', 'gpt-4o', '--scorer-timeout', '0.5'], {
        env: { ...env, OPENAI_API_KEY: 'sk-local', OPENAI_BASE_URL: server.baseURL },
        timeoutMs: 120_000,
      });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toContain('the scorer failed: it did not answer within 0.5 s');
    } finally {
      await server.close();
    }
  });
});
