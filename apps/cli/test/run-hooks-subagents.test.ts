import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

const home = tempDir();
let server: ScriptedLLMServer;
let llmEnv: Record<string, string>;

beforeAll(async () => {
  server = await startScriptedLLMServer();
  llmEnv = { X_HOME: home.path, HOME: home.path, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.baseURL };
});
afterEach(() => {
  server.requests.length = 0;
});
afterAll(async () => {
  await server.close();
  home.remove();
});

const finish = (message: string) => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });

describe('x run with hooks', () => {
  it('reads .openhands/hooks.json in the workspace; a blocking PreToolUse hook rejects the action', async () => {
    const workspace = tempDir();
    mkdirSync(join(workspace.path, '.openhands'));
    const script = join(workspace.path, '.openhands', 'no-rm.sh');
    writeFileSync(script, '#!/bin/sh\necho "rm is not allowed" >&2\nexit 2\n');
    chmodSync(script, 0o755);
    writeFileSync(
      join(workspace.path, '.openhands', 'hooks.json'),
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: 'terminal', hooks: [{ type: 'command', command: script }] }] },
      }),
    );
    server.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'rm -rf build' } }] }, finish('Could not.'));
    const result = await runCli(['run', 'Delete build'], { env: llmEnv, cwd: workspace.path });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`hooks from ${join(workspace.path, '.openhands', 'hooks.json')}`);
    expect(result.stdout).toContain('Hook PreToolUse');
    expect(result.stdout).toContain('blocked: rm is not allowed');
    expect(JSON.stringify(server.requests[1])).toContain('Action rejected: rm is not allowed');

    server.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'echo ran' } }] }, finish('Done.'));
    const skipped = await runCli(['run', 'Echo', '--no-hooks'], { env: llmEnv, cwd: workspace.path });
    expect(skipped.code).toBe(0);
    expect(skipped.stdout).not.toContain('Hook PreToolUse');
    workspace.remove();
  });

  it('refuses an invalid --hooks file with a clear error', async () => {
    const workspace = tempDir();
    const file = join(workspace.path, 'hooks.json');
    writeFileSync(file, JSON.stringify({ BeforeTool: [] }));
    const result = await runCli(['run', 'Anything', '--hooks', file], { env: llmEnv, cwd: workspace.path });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Invalid hook configuration (${file}): unknown event type 'BeforeTool'`);
    expect(server.requests).toHaveLength(0);
    workspace.remove();
  });
});

describe('x run --sub-agents', () => {
  it('delegates to a child conversation that inspect and list show', async () => {
    const workspace = tempDir();
    server.push(
      { toolCalls: [{ name: 'delegate', arguments: { command: 'spawn', ids: ['helper'] } }] },
      { toolCalls: [{ name: 'delegate', arguments: { command: 'delegate', tasks: { helper: 'Say hi' } } }] },
      finish('hi from the helper'),
      finish('The helper said hi.'),
    );
    const result = await runCli(['run', 'Ask the helper', '--sub-agents'], { env: llmEnv, cwd: workspace.path });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('↳ helper · ');
    expect(result.stdout).toContain('1. Agent helper: hi from the helper');
    const id = /^Conversation ([0-9a-f-]{36})$/m.exec(result.stdout)?.[1] ?? '';

    const inspected = await runCli(['inspect', id, '--json'], { env: llmEnv });
    const report = JSON.parse(inspected.stdout) as { sub_conversation_ids: string[]; sub_conversations: unknown[] };
    expect(report.sub_conversation_ids).toHaveLength(1);
    expect(report.sub_conversations[0]).toMatchObject({ status: 'finished' });
    const childId = report.sub_conversation_ids[0] ?? '';

    const listed = await runCli(['list', '--json'], { env: llmEnv });
    const entries = listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; sub_conversation_ids: string[] });
    expect(entries.find((entry) => entry.id === id)?.sub_conversation_ids).toEqual([childId]);

    const child = await runCli(['inspect', childId], { env: llmEnv });
    expect(child.code).toBe(0);
    expect(child.stdout).toContain(`Conversation ${childId}`);
    expect(child.stdout).toContain('subagents');
    workspace.remove();
  });

  it("asks about a sub-agent's actions under --confirm always", async () => {
    const workspace = tempDir();
    server.push(
      { toolCalls: [{ name: 'delegate', arguments: { command: 'spawn', ids: ['worker'] } }] },
      { toolCalls: [{ name: 'delegate', arguments: { command: 'delegate', tasks: { worker: 'Make a file' } } }] },
      { toolCalls: [{ name: 'terminal', arguments: { command: 'touch made-by-worker.txt' } }] },
      finish('The user said no.'),
      finish('The worker was refused.'),
    );
    // Parent actions: y (spawn), y (delegate); the worker's terminal action: n.
    const result = await runCli(['run', 'Delegate', '--sub-agents', '--confirm', 'always'], {
      env: llmEnv,
      cwd: workspace.path,
      input: 'y\ny\nn\ny\n',
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Sub-agent worker:');
    expect(result.stderr).toContain('touch made-by-worker.txt');
    expect(result.stdout).toContain('1. Agent worker: The user said no.');
    expect(existsSync(join(workspace.path, 'made-by-worker.txt'))).toBe(false);
    workspace.remove();
  });
});
