import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

const home = tempDir();
let server: ScriptedLLMServer;
let llmEnv: Record<string, string>;

beforeAll(async () => {
  server = await startScriptedLLMServer();
  llmEnv = { X_HOME: home.path, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.baseURL };
});
afterEach(() => {
  server.requests.length = 0;
});
afterAll(async () => {
  await server.close();
  home.remove();
});

describe('x run against an OpenAI-compatible endpoint', () => {
  it('uses the endpoint and model, runs the tools, and resumes', async () => {
    const workspace = tempDir();
    server.push(
      {
        content: 'Writing the note.',
        toolCalls: [{ name: 'terminal', arguments: { command: 'echo remembered > note.txt && cat note.txt' } }],
      },
      { toolCalls: [{ name: 'finish', arguments: { message: 'The note is written.' } }] },
    );
    const result = await runCli(['run', 'Write a note', '--model', 'scripted-model'], {
      env: llmEnv,
      cwd: workspace.path,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`model      scripted-model at ${server.baseURL}`);
    expect(result.stdout).not.toContain('offline');
    expect(result.stdout).toContain('$ echo remembered > note.txt && cat note.txt');
    expect(result.stdout).toMatch(/↳ terminal exit 0 #\d+\n {2}│ remembered/);
    expect(result.stdout).toContain('The note is written.');
    expect(readFileSync(join(workspace.path, 'note.txt'), 'utf8')).toBe('remembered\n');
    expect(server.requests.map((request) => request.model)).toEqual(['scripted-model', 'scripted-model']);
    const id = /^Conversation ([0-9a-f-]{36})$/m.exec(result.stdout)?.[1] ?? '';

    server.push({ content: 'It says remembered.' });
    // From another directory: the conversation keeps its recorded workspace.
    const resumed = await runCli(['run', '--resume', id, 'What does the note say?'], { env: llmEnv, cwd: home.path });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`workspace  ${workspace.path}`);
    expect(resumed.stdout).toContain(`Resuming conversation ${id}`);
    expect(resumed.stdout).toMatch(/▶ User #\d+\n {2}What does the note say\?/);
    expect(resumed.stdout).toContain('It says remembered.');
    const lastRequest = server.requests.at(-1) as { messages: { role: string }[] };
    expect(lastRequest.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'user',
    ]);
    workspace.remove();
  });

  it('streams tokens with --stream without printing the reply twice', async () => {
    server.push({ content: 'Streaming a reply word by word.' });
    const result = await runCli(['run', 'Say something', '--stream'], { env: llmEnv });
    expect(result.code).toBe(0);
    expect(server.requests[0]?.stream).toBe(true);
    expect(result.stdout.split('Streaming a reply word by word.')).toHaveLength(2);
  });

  it('exits 1 and shows the error when the endpoint refuses the key', async () => {
    server.push({ error: { status: 401, message: 'Incorrect API key provided' } });
    const result = await runCli(['run', 'Anything'], { env: llmEnv });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✖ LLMAuthenticationError #\d+\n {2}.*Incorrect API key provided/);
    expect(result.stdout).toContain('✖ The run ended in an error');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 1 when the run reaches --max-iterations', async () => {
    server.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'true' } }] });
    const result = await runCli(['run', 'Loop', '--max-iterations', '1'], { env: llmEnv });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('MaxIterationsReached');
    expect(result.stdout).toContain('Agent reached maximum iterations limit (1).');
  });

  it('summarizes with --condenser summarize and records the condenser in base_state.json', async () => {
    server.push({ content: 'Nothing to condense yet.' });
    const result = await runCli(['run', 'Short task', '--condenser', 'summarize'], { env: llmEnv });
    expect(result.code).toBe(0);
    const location = /saved in\s+(\S+)/.exec(result.stdout)?.[1] ?? '';
    const base = JSON.parse(readFileSync(join(location, 'base_state.json'), 'utf8')) as {
      agent: { condenser?: { kind: string } };
    };
    expect(base.agent.condenser?.kind).toBe('LLMSummarizingCondenser');
  });
});
