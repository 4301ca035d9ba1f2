import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

// `x run` in a directory that holds the conversation store (the home directory, with ~/.x/conversations) would give
// a sandboxed command the conversations and the sandbox policy they resume under: it is refused, naming both.

const home = tempDir();
let server: ScriptedLLMServer;

beforeAll(async () => {
  server = await startScriptedLLMServer();
});
afterAll(async () => {
  await server.close();
  home.remove();
});

describe('x run where the workspace holds the store', () => {
  it('exits 1 naming the store and what to do, before asking the model or writing a conversation', async () => {
    const result = await runCli(['run', 'Say hi', '--model', 'my-local-model'], {
      env: { X_HOME: join(home.path, '.x'), OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.baseURL },
      cwd: home.path,
    });
    expect(result.code).toBe(1);
    const output = result.stdout + result.stderr;
    expect(output).toContain(`holds the conversation store ${join(home.path, '.x', 'conversations')}`);
    expect(output).toContain('X_HOME');
    expect(server.requests).toHaveLength(0);
    const store = join(home.path, '.x', 'conversations');
    expect(existsSync(store) ? readdirSync(store) : []).toEqual([]);
  });
});
