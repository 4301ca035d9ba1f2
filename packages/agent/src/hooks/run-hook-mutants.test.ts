import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sandboxPolicySchema } from '../sandbox/sandbox-policy.js';
import { openDefaultSandbox } from '../sandboxing/sandbox-opener.js';
import { type HookDefinition, parseHookConfig } from './hook-config.js';
import type { HookInput } from './hook-input.js';
import { runHook } from './run-hook.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-run-hook-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

async function command(body: string, options: { async?: boolean } = {}): Promise<HookDefinition> {
  const path = join(dir, `hook-${Math.random().toString(36).slice(2)}.sh`);
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return parseHookConfig({ PreToolUse: [{ hooks: [{ command: path, timeout: 30, ...options }] }] }).pre_tool_use[0]!
    .hooks[0]!;
}

const input: HookInput = {
  event_type: 'PreToolUse',
  tool_name: 'terminal',
  tool_input: { command: 'ls' },
  tool_response: null,
  message: null,
  session_id: 'session-1',
  working_dir: null,
  metadata: {},
};

describe('runHook: exit code and JSON answer together', () => {
  it('a crashing hook that answers deny still blocks (the reference reads stdout whatever the exit code)', async () => {
    const hook = await command(`echo '{"decision": "deny", "reason": "no"}'\necho "half done" >&2\nexit 1`);
    const result = await runHook(hook, input, { workspace: dir });
    expect(result).toMatchObject({ success: false, blocked: true, exit_code: 1, decision: 'deny', reason: 'no' });
    expect(result.error).toBe('Hook exited with code 1: half done');
  });

  it('exit code 2 blocks even when the answer says allow', async () => {
    const hook = await command(`echo '{"decision": "allow"}'\nexit 2`);
    expect(await runHook(hook, input, { workspace: dir })).toMatchObject({
      success: false,
      blocked: true,
      exit_code: 2,
      decision: 'allow',
    });
  });

  it('names the crash and the invalid answer together', async () => {
    const hook = await command(`echo '{"decision": "later"}'\nexit 3`);
    const result = await runHook(hook, input, { workspace: dir });
    expect(result).toMatchObject({ success: false, blocked: false, exit_code: 3 });
    expect(result.error).toBe(
      `Hook exited with code 3; Hook output is invalid: 'decision' must be "allow" or "deny", got "later"`,
    );
  });

  it('reports the last line of a crash’s stderr, at most 500 characters of it', async () => {
    const long = 'y'.repeat(600);
    const hook = await command(`echo "first line" >&2\necho "Error: last line" >&2\nexit 4`);
    expect((await runHook(hook, input, { workspace: dir })).error).toBe('Hook exited with code 4: Error: last line');
    const longHook = await command(`echo "${long}" >&2\nexit 4`);
    expect((await runHook(longHook, input, { workspace: dir })).error).toBe(
      `Hook exited with code 4: ${long.slice(0, 500)}`,
    );
  });
});

describe('runHook: environment', () => {
  it('sets no OPENHANDS_TOOL_NAME without a tool (null or empty, as the reference) and an empty session id', async () => {
    const hook = await command(`env > "${dir}/env.txt"`);
    for (const toolName of [null, '']) {
      await runHook(hook, { ...input, tool_name: toolName, session_id: null }, { workspace: dir });
      const env = (await readFile(join(dir, 'env.txt'), 'utf8')).split('\n');
      expect(env.filter((line) => line.startsWith('OPENHANDS_TOOL_NAME'))).toEqual([]);
      expect(env).toContain('OPENHANDS_SESSION_ID=');
    }
  });
});

describe('runHook: the sandbox it runs in', () => {
  it('runs in the sandbox it is given and leaves it open for the next hook', async () => {
    const sandbox = await openDefaultSandbox({ policy: sandboxPolicySchema.parse({}), workspace: dir });
    const opened = vi.fn(async () => sandbox);
    try {
      const hook = await command('echo ran');
      for (let run = 0; run < 2; run++) {
        expect(await runHook(hook, input, { workspace: dir, sandbox: opened })).toMatchObject({
          success: true,
          stdout: 'ran\n',
        });
      }
      expect(opened).toHaveBeenCalledTimes(2);
    } finally {
      await sandbox.dispose();
    }
  });

  it('reports a sandbox that refuses to start it, without blocking', async () => {
    const sandbox = await openDefaultSandbox({ policy: sandboxPolicySchema.parse({}), workspace: dir });
    await sandbox.dispose();
    const result = await runHook(await command('exit 2'), input, { workspace: dir, sandbox: async () => sandbox });
    expect(result).toEqual({
      success: false,
      blocked: false,
      exit_code: -1,
      stdout: '',
      stderr: '',
      error: 'Hook execution failed: The sandbox was disposed; it runs nothing more',
    });
  });

  it('answers at once for an async hook, as a success that blocks nothing', async () => {
    const hook = await command(`cat > "${dir}/async.json"\nexit 2`, { async: true });
    expect(await runHook(hook, input, { workspace: dir })).toEqual({
      success: true,
      blocked: false,
      exit_code: 0,
      stdout: '',
      stderr: '',
    });
    await vi.waitFor(async () => expect(JSON.parse(await readFile(join(dir, 'async.json'), 'utf8'))).toEqual(input), {
      timeout: 30_000,
      interval: 20,
    });
  });
});

describe('runHook with functions', () => {
  const fn = (run: (input: HookInput, options: { signal: AbortSignal }) => unknown, timeout = 10): HookDefinition =>
    parseHookConfig({ Stop: [{ hooks: [{ name: 'check', run: run as never, timeout }] }] }).stop[0]!.hooks[0]!;

  it('aborts the signal of a function that outlives its timeout', async () => {
    let signal: AbortSignal | undefined;
    const result = await runHook(
      fn((_, options) => {
        signal = options.signal;
        return new Promise(() => undefined);
      }, 0.05),
      input,
      { workspace: dir },
    );
    expect(result).toMatchObject({ success: false, blocked: false, exit_code: -1 });
    expect(signal?.aborted).toBe(true);
  });

  it('records an invalid answer as an error that does not block', async () => {
    const result = await runHook(
      fn(() => ({ decision: 'maybe', reason: 'unsure' })),
      input,
      { workspace: dir },
    );
    expect(result).toEqual({
      success: false,
      blocked: false,
      exit_code: 0,
      stdout: '',
      stderr: '',
      reason: 'unsure',
      error: `Hook output is invalid: 'decision' must be "allow" or "deny", got "maybe"`,
    });
  });

  it('answers allow with additional context as a clean success', async () => {
    const result = await runHook(
      fn(() => ({ decision: 'allow', additionalContext: 'remember the tests' })),
      input,
      { workspace: dir },
    );
    expect(result).toEqual({
      success: true,
      blocked: false,
      exit_code: 0,
      stdout: '',
      stderr: '',
      decision: 'allow',
      additional_context: 'remember the tests',
    });
  });

  it('leaves no timer behind once it has answered or thrown (a process would wait out the timeout)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await runHook(
        fn(() => undefined),
        input,
        { workspace: dir },
      );
      expect(vi.getTimerCount()).toBe(0);
      const thrown = await runHook(
        fn(() => {
          throw 'not an Error';
        }),
        input,
        { workspace: dir },
      );
      expect(thrown.error).toBe("Hook function 'check' threw: not an Error");
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
