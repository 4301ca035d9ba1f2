import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackground } from './helpers/background.js';
import { runCli, tempDir } from './helpers/run-cli.js';

const home = tempDir();
const env = { X_HOME: home.path };
/** Where the runs work: beside X_HOME's store, never holding it (a sandboxed conversation refuses that). */
const project = join(home.path, 'project');
mkdirSync(project, { recursive: true });
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

const idOf = (text: string): string => /^Conversation ([0-9a-f-]{36})$/m.exec(text)?.[1] ?? '';

describe('x run without a model', () => {
  it('says no model is configured, exits 1 and records nothing', async () => {
    const result = await runCli(['run', 'Describe this project'], { env, cwd: project });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No model is configured');
    expect(result.stderr).toContain('OPENAI_API_KEY');
    expect(result.stderr).toContain('x run --demo');
    expect(result.stdout).not.toContain('Finished');
    expect(existsSync(join(home.path, 'conversations'))).toBe(false);
  });
});

describe('x run --demo workspace', () => {
  it('is kept under $X_HOME/demo-workspaces, printed, and nothing is left in the temporary directory', async () => {
    const result = await runCli(['run', '--demo'], { env });
    expect(result.code).toBe(0);
    const workspace = /workspace\s+(\S+)/.exec(result.stdout)?.[1] ?? '';
    expect(workspace.startsWith(join(home.path, 'demo-workspaces', 'x-demo-'))).toBe(true);
    expect(readFileSync(join(workspace, 'hello.txt'), 'utf8')).toBe('Hello from the offline model!\n');
    // cleanEnv points TMPDIR at $X_HOME/tmp for the child: nothing went there but the sandbox's private directory
    // (kept for every x process of the user, like tmux's), and nothing of this process is left in it.
    const privateRoot = `x-sandbox-private-${process.getuid?.() ?? 0}`;
    expect(readdirSync(join(home.path, 'tmp')).filter((name) => name !== privateRoot)).toEqual([]);
    expect(readdirSync(join(home.path, 'tmp', privateRoot))).toEqual([]);
  });
});

describe('x run --json', () => {
  it('prints only the events on stdout, one JSON object a line, exactly the recorded ones', async () => {
    const result = await runCli(['run', '--demo', '--json'], { env });
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n').filter((line) => line !== '');
    const events = lines.map((line) => JSON.parse(line) as { id: string; kind: string; timestamp: string });
    for (const event of events) expect(event).toMatchObject({ id: expect.any(String), kind: expect.any(String) });
    expect(result.stdout.endsWith('\n')).toBe(true);
    const kinds = events.map((event) => event.kind);
    expect(kinds[0]).toBe('SystemPromptEvent');
    expect(kinds).toContain('ActionEvent');
    expect(kinds).toContain('ObservationEvent');
    // The people's part went to stderr.
    expect(result.stderr).toContain('✔ Finished.');
    const id = idOf(result.stderr);
    expect(id).not.toBe('');
    // Every recorded event, in order, and nothing else.
    const dir = join(home.path, 'conversations', id.replace(/-/g, ''), 'events');
    const recorded = readdirSync(dir)
      .filter((name) => name.startsWith('event-'))
      .sort()
      .map((name) => (JSON.parse(readFileSync(join(dir, name), 'utf8')) as { id: string }).id);
    expect(events.map((event) => event.id)).toEqual(recorded);
  });
});

describe('x run stats', () => {
  it('pluralises iterations and says when the cost is unknown instead of $0.00', async () => {
    server.push({ content: 'Just an answer.' });
    const result = await runCli(['run', 'Say something', '--model', 'my-local-model'], {
      env: llmEnv,
      cwd: project,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /── 1 iteration · 15 tokens \(10 in, 5 out\) · cost unknown \(no price for my-local-model\)/,
    );
    const replay = await runCli(['replay', idOf(result.stdout)], { env });
    expect(replay.stdout).toMatch(/· 1 iteration · /);
    expect(replay.stdout).not.toContain('1 iterations');
  });

  it('shows the cost of a priced model, also with a provider prefix, never a rounded $0.00', async () => {
    for (const model of ['gpt-4o-mini', 'openai/gpt-4o-mini']) {
      server.push({ content: 'Priced answer.' });
      const result = await runCli(['run', 'Say something', '--model', model], { env: llmEnv, cwd: project });
      expect(result.code).toBe(0);
      // 10 prompt tokens at $0.15/M and 5 completion tokens at $0.60/M.
      expect(result.stdout).toMatch(/── 1 iteration · 15 tokens \(10 in, 5 out\) · \$0\.0000045 · /);
      const inspect = await runCli(['inspect', idOf(result.stdout)], { env });
      expect(inspect.stdout).toMatch(/cost\s+\$0\.0000045/);
    }
  });
});

describe('Ctrl-C during a command', () => {
  it('says it waits for the running command, shows the pause after its output, then Paused', async () => {
    const workspace = tempDir();
    // The command runs until the test lets it end (after the Ctrl-C), not for a time a loaded machine may outlast.
    const command = 'until [ -e release ]; do sleep 0.05; done && echo woke-up';
    server.push(
      {
        content: 'Sleeping.',
        toolCalls: [{ name: 'terminal', arguments: { command } }],
      },
      { toolCalls: [{ name: 'finish', arguments: { message: 'Should not be reached.' } }] },
    );
    const run = startBackground(['run', 'Sleep a while', '--model', 'my-local-model', '--workspace', workspace.path], {
      ...llmEnv,
    });
    try {
      await run.waitFor(/\$ until \[ -e release \]/);
      // One Ctrl-C only (interrupt() would send another if the run were still going).
      const closed = new Promise<number | null>((resolve) => run.child.once('close', resolve));
      run.child.kill('SIGINT');
      await run.waitFor(/Stopping: waiting for the running command/, undefined, 'stderr');
      writeFileSync(join(workspace.path, 'release'), '');
      expect(await closed).toBe(130);
    } finally {
      workspace.remove();
    }
    expect(run.stderr).toContain(`Stopping: waiting for the running command to finish (terminal: ${command})`);
    const woke = run.stdout.indexOf('woke-up\n');
    const pause = run.stdout.search(/‖ Paused(?!\.)/);
    expect(woke).toBeGreaterThan(0);
    expect(pause).toBeGreaterThan(woke);
    expect(run.stdout.trimEnd()).toMatch(/‖ Paused\.\n.*replay: /);
    expect(run.stdout).not.toContain('Should not be reached.');
  });

  it('a second Ctrl-C interrupts a model call at once: the conversation is paused, not failed', async () => {
    const workspace = tempDir();
    // Its own model, which never answers (the shared one may hold replies other tests left).
    const silent = await startScriptedLLMServer([{ hang: true }]);
    const run = startBackground(['run', 'Think hard', '--model', 'my-local-model', '--workspace', workspace.path], {
      ...llmEnv,
      OPENAI_BASE_URL: silent.baseURL,
    });
    try {
      await silent.waitForRequests(1);
      const closed = new Promise<number | null>((resolve) => run.child.once('close', resolve));
      run.child.kill('SIGINT');
      await run.waitFor(/Pausing after the current step/, undefined, 'stderr');
      run.child.kill('SIGINT');
      // The model's request is closed by the client: the run did not wait for an answer that never comes.
      await silent.waitForClientClose(0);
      expect(await closed).toBe(130);
    } finally {
      workspace.remove();
      await silent.close();
    }
    expect(run.stdout.trimEnd()).toMatch(/‖ Paused\.\n.*replay: /);
    const inspect = await runCli(['inspect', idOf(run.stdout), '--json'], { env });
    expect(JSON.parse(inspect.stdout)).toMatchObject({ status: 'paused' });
    const events = await runCli(['events', idOf(run.stdout), '-k', 'InterruptEvent'], { env });
    expect(events.stdout).toContain('InterruptEvent');
  });
});
