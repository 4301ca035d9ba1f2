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

// gpt-4o lists at $2.50 / $10 per million tokens: each reply below costs $0.0075, and the next call is estimated
// at its 1500 tokens as input, $0.00375.
const usage = { prompt_tokens: 1000, completion_tokens: 500 };
const think = { toolCalls: [{ name: 'think', arguments: { thought: 'hmm' } }], usage };

describe('x run --max-budget', () => {
  it('stops with exit code 6 before passing the budget; a second process resumes it under a higher one', async () => {
    const workspace = tempDir();
    server.push(think, think, { toolCalls: [{ name: 'finish', arguments: { message: 'All done.' } }], usage });
    const first = await runCli(['run', 'Think', '--model', 'gpt-4o', '--max-budget', '0.01'], {
      env: llmEnv,
      cwd: workspace.path,
    });
    expect(first.code).toBe(6);
    expect(server.requests).toHaveLength(1);
    expect(first.stdout).toContain('Stopped on the money budget: Agent reached maximum budget limit ($0.0100)');
    const id = /^Conversation ([0-9a-f-]{36})$/m.exec(first.stdout)?.[1] ?? '';

    // Same budget, new process: the spend comes back from the log, so no call is made.
    const again = await runCli(['run', '--resume', id, '--model', 'gpt-4o'], { env: llmEnv, cwd: workspace.path });
    expect(again.code).toBe(6);
    expect(server.requests).toHaveLength(1);

    const raised = await runCli(['run', '--resume', id, '--model', 'gpt-4o', '--max-budget', '1.00'], {
      env: llmEnv,
      cwd: workspace.path,
    });
    expect(raised.code).toBe(0);
    expect(raised.stdout).toContain('All done.');
    expect(server.requests).toHaveLength(3);
    workspace.remove();
  });

  it('refuses a negative or non-numeric budget as a usage error', async () => {
    for (const value of ['-1', 'lots', '']) {
      const result = await runCli(['run', 'Think', '--max-budget', value], { env: llmEnv, cwd: home.path });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('--max-budget');
    }
    const alone = await runCli(['run', 'Think', '--allow-unknown-cost'], { env: llmEnv, cwd: home.path });
    expect(alone.code).toBe(2);
  });
});
