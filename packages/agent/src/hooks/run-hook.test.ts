import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hostPids, PRINT_PID_NAMESPACE } from '../testing/sandbox-pids.js';
import { type HookDefinition, parseHookConfig } from './hook-config.js';
import type { HookInput } from './hook-input.js';
import { runHook } from './run-hook.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-hooks-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

async function script(name: string, body: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

function command(path: string, timeout = 10): HookDefinition {
  return parseHookConfig({ PreToolUse: [{ hooks: [{ command: path, timeout }] }] }).pre_tool_use[0]!.hooks[0]!;
}

/** A killed process may linger as a zombie until reaped: that counts as dead. */
function isAlive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

const input: HookInput = {
  event_type: 'PreToolUse',
  tool_name: 'terminal',
  tool_input: { command: 'rm -rf /' },
  tool_response: null,
  message: null,
  session_id: 'session-1',
  working_dir: '/tmp',
  metadata: {},
};

describe('runHook with shell commands', () => {
  it('passes the event as JSON on stdin and a minimal environment', async () => {
    const path = await script('capture.sh', `cat > "${dir}/stdin.json"\nenv > "${dir}/env.txt"`);
    process.env.X_TEST_SECRET_TOKEN = 'sk-should-not-leak';
    try {
      const result = await runHook(command(path), input, { workspace: dir, env: { EXTRA: 'yes' } });
      expect(result).toMatchObject({ success: true, blocked: false, exit_code: 0 });
    } finally {
      delete process.env.X_TEST_SECRET_TOKEN;
    }
    expect(JSON.parse(await readFile(join(dir, 'stdin.json'), 'utf8'))).toEqual(input);
    const env = await readFile(join(dir, 'env.txt'), 'utf8');
    expect(env).toContain('OPENHANDS_EVENT_TYPE=PreToolUse');
    expect(env).toContain('OPENHANDS_TOOL_NAME=terminal');
    expect(env).toContain('OPENHANDS_SESSION_ID=session-1');
    expect(env).toContain(`OPENHANDS_PROJECT_DIR=${dir}`);
    expect(env).toContain('EXTRA=yes');
    expect(env).not.toContain('sk-should-not-leak');
  });

  it('blocks on exit code 2 with stderr as the reason', async () => {
    const path = await script('block.sh', 'echo "dangerous command" >&2\nexit 2');
    const result = await runHook(command(path), input, { workspace: dir });
    expect(result).toMatchObject({ success: false, blocked: true, exit_code: 2, stderr: 'dangerous command\n' });
    expect(result.error).toBeUndefined();
  });

  it('blocks on a JSON deny decision and reads reason and additionalContext', async () => {
    const path = await script(
      'deny.sh',
      `echo '{"decision": "DENY", "reason": "not on Fridays", "additionalContext": "try Monday"}'`,
    );
    const result = await runHook(command(path), input, { workspace: dir });
    expect(result).toMatchObject({
      success: true,
      blocked: true,
      exit_code: 0,
      decision: 'deny',
      reason: 'not on Fridays',
      additional_context: 'try Monday',
    });
  });

  it('kills a hook that hangs at its timeout, with its children, and does not block', async () => {
    // The hook runs in a sandbox: `$!` is a pid of its PID namespace, mapped to the host's while it runs.
    const path = await script(
      'hang.sh',
      `sleep 30 &\necho "$! $(${PRINT_PID_NAMESPACE})" > "${dir}/child.tmp"\nmv "${dir}/child.tmp" "${dir}/child.pid"\nwait`,
    );
    const running = runHook(command(path, 3), input, { workspace: dir });
    const written = await vi.waitFor(() => readFile(join(dir, 'child.pid'), 'utf8'), { timeout: 60_000, interval: 20 });
    const [inside, namespace] = written.trim().split(' ');
    const [childPid] = await hostPids(namespace as string, [Number(inside)]);
    expect(isAlive(childPid as number)).toBe(true);
    const result = await running;
    expect(result).toMatchObject({ success: false, blocked: false, exit_code: -1 });
    expect(result.error).toBe('Hook timed out after 3 seconds');
    await vi.waitFor(() => expect(isAlive(childPid as number)).toBe(false), { timeout: 60_000, interval: 20 });
  });

  it('records a crash (non-zero exit other than 2) as an error that does not block', async () => {
    const path = await script('crash.sh', 'echo "Traceback: boom" >&2\nexit 1');
    const result = await runHook(command(path), input, { workspace: dir });
    expect(result).toMatchObject({ success: false, blocked: false, exit_code: 1 });
    expect(result.error).toBe('Hook exited with code 1: Traceback: boom');
  });

  it('records invalid JSON output as an error and does not block', async () => {
    const path = await script('bad-json.sh', `echo '{"decision": "deny",'`);
    const result = await runHook(command(path), input, { workspace: dir });
    expect(result).toMatchObject({ success: false, blocked: false, exit_code: 0 });
    expect(result.error).toMatch(/^Hook printed invalid JSON on stdout: /);
  });

  it('records a decision of the wrong value as an error', async () => {
    const path = await script('bad-decision.sh', `echo '{"decision": "maybe"}'`);
    const result = await runHook(command(path), input, { workspace: dir });
    expect(result).toMatchObject({ success: false, blocked: false });
    expect(result.error).toContain(`'decision' must be "allow" or "deny", got "maybe"`);
  });

  it('accepts plain text output (a logging hook)', async () => {
    const path = await script('log.sh', 'echo "logged"');
    expect(await runHook(command(path), input, { workspace: dir })).toMatchObject({
      success: true,
      blocked: false,
      stdout: 'logged\n',
    });
  });

  it('reports a command that cannot run', async () => {
    const result = await runHook(command(join(dir, 'missing.sh')), input, { workspace: dir });
    expect(result).toMatchObject({ success: false, blocked: false, exit_code: 127 });
    expect(result.error).toMatch(/^Hook exited with code 127: .*not found/);
  });

  it('reports a workspace that does not exist', async () => {
    const path = await script('ok.sh', 'exit 0');
    const result = await runHook(command(path), input, { workspace: join(dir, 'nope') });
    expect(result).toMatchObject({ success: false, blocked: false, exit_code: -1 });
    expect(result.error).toMatch(/^Hook execution failed: /);
  });

  it('runs async hooks in the background', async () => {
    const path = await script('async.sh', `cat > "${dir}/async.json"`);
    const hook = parseHookConfig({ PostToolUse: [{ hooks: [{ command: path, async: true }] }] }).post_tool_use[0]!
      .hooks[0]!;
    expect(await runHook(hook, input, { workspace: dir })).toMatchObject({ success: true, blocked: false });
  });
});

describe('runHook with functions', () => {
  const fn = (run: (input: HookInput) => unknown, timeout = 10): HookDefinition =>
    parseHookConfig({ Stop: [{ hooks: [{ name: 'check', run: run as never, timeout }] }] }).stop[0]!.hooks[0]!;

  it('passes the input and reads the answer', async () => {
    let seen: HookInput | undefined;
    const result = await runHook(
      fn((received) => {
        seen = received;
        return { decision: 'deny', reason: 'tests are failing' };
      }),
      input,
      { workspace: dir },
    );
    expect(seen).toEqual(input);
    expect(result).toMatchObject({ success: true, blocked: true, exit_code: 0, reason: 'tests are failing' });
  });

  it('records a thrown error without blocking', async () => {
    const result = await runHook(
      fn(() => {
        throw new Error('kaput');
      }),
      input,
      { workspace: dir },
    );
    expect(result).toMatchObject({ success: false, blocked: false, error: "Hook function 'check' threw: kaput" });
  });

  it('times out a function that never settles', async () => {
    const result = await runHook(
      fn(() => new Promise(() => undefined), 0.05),
      input,
      { workspace: dir },
    );
    expect(result).toMatchObject({ success: false, blocked: false, error: 'Hook timed out after 0.05 seconds' });
  });
});
