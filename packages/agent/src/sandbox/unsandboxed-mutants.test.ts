// The explicit opt-out with real host processes: it warns once per process, each command leads its own process
// group, `signal` reaches that group, and `dispose()` kills every tree it started (a child that left the group while
// its leader ran, and a background job whose leader already exited), and runs nothing after.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hostSleeps, waitFor } from '../../test/support/sandbox-fixture.js';
import type { Sandbox } from './sandbox.js';
import { createUnsandboxedSandbox } from './unsandboxed.js';

const sandboxes: Sandbox[] = [];
/** Distinct `sleep` durations, so that each test finds only its own processes. */
let seconds = 700_000 + Math.floor(Math.random() * 100_000);

function sandbox(): Sandbox {
  const created = createUnsandboxedSandbox({ workspace: tmpdir(), warn: () => undefined });
  sandboxes.push(created);
  return created;
}

function sh(target: Sandbox, script: string): Promise<ChildProcess> {
  return target.spawn({ command: '/bin/sh', args: ['-c', script], cwd: tmpdir(), env: { PATH: '/usr/bin:/bin' } });
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((each) => each.dispose()));
});

describe('the warning', () => {
  it('is printed once per process, by the first opt-out, naming why', async () => {
    vi.resetModules();
    try {
      const fresh = await import('./unsandboxed.js');
      const messages: string[] = [];
      const warn = (message: string) => messages.push(message);
      const first = fresh.createUnsandboxedSandbox({ workspace: tmpdir(), warn, policy: { mode: 'sandboxed' } });
      fresh.createUnsandboxedSandbox({ workspace: tmpdir(), warn });
      fresh.warnUnsandboxedOnce('the server was started with --unsandboxed', warn);
      expect(messages).toEqual([
        expect.stringContaining('running tools WITHOUT a sandbox: the conversation chose the unsandboxed policy.'),
      ]);
      expect(fresh.unsandboxedWarning('why')).toMatch(/^running tools WITHOUT a sandbox: why\. .*host's authority/);
      expect(first.policy.mode).toBe('unsandboxed');
      expect(first.kind).toBe('unsandboxed');
      expect(Object.isFrozen(first)).toBe(true);
    } finally {
      vi.resetModules();
    }
  });
});

describe('a command', () => {
  it('is prepared unchanged, and spawned leading its own process group', async () => {
    const target = sandbox();
    const command = { command: '/bin/true', args: ['a'], cwd: '/', env: { A: '1' } };
    const prepared = await target.prepare(command);
    expect(prepared).toMatchObject(command);
    seconds += 1;
    const child = await sh(target, `exec sleep ${seconds}`);
    await waitFor(() => hostSleeps(seconds).length === 1, 'the sleep to start');
    const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
    const [, , processGroup] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    expect(Number(processGroup)).toBe(child.pid);
  });

  it('signal() reaches its group', async () => {
    const target = sandbox();
    seconds += 1;
    const child = await sh(target, `sleep ${seconds}; sleep ${seconds}`);
    await waitFor(() => hostSleeps(seconds).length === 1, 'the sleep to start');
    target.signal(child.pid as number, 'SIGTERM');
    await waitFor(() => exited(child) && hostSleeps(seconds).length === 0, 'the group to end');
    expect(child.signalCode).toBe('SIGTERM');
  });
});

describe('dispose()', () => {
  it('kills a running tree, a child that left the group included', async () => {
    const target = sandbox();
    seconds += 1;
    const child = await sh(target, `setsid sleep ${seconds} & sleep ${seconds}; wait`);
    await waitFor(() => hostSleeps(seconds).length === 2, 'both sleeps to start');
    await target.dispose();
    await waitFor(() => exited(child) && hostSleeps(seconds).length === 0, 'every sleep to end');
  });

  it('kills the background job of a command whose leader already exited', async () => {
    const target = sandbox();
    seconds += 1;
    // The job keeps the command's stdout open: the command is over, its group is not.
    const child = await sh(target, `sleep ${seconds} & echo started`);
    await waitFor(() => exited(child) && hostSleeps(seconds).length === 1, 'the leader to exit, its job running');
    await target.dispose();
    await waitFor(() => hostSleeps(seconds).length === 0, 'the job to end');
  });

  it('lets nothing start afterwards, even a spawn that was on its way', async () => {
    const target = sandbox();
    const pending = sh(target, 'true');
    await target.dispose();
    await expect(pending).rejects.toThrow('the unsandboxed sandbox was disposed');
    await expect(sh(target, 'true')).rejects.toThrow('the unsandboxed sandbox was disposed');
  });

  it('survives a command that never started', async () => {
    const target = sandbox();
    const child = await target.spawn({ command: '/nonexistent/x', args: [], cwd: tmpdir(), env: {} });
    await new Promise((resolve) => child.once('error', resolve));
    seconds += 1;
    const running = await sh(target, `exec sleep ${seconds}`);
    await waitFor(() => hostSleeps(seconds).length === 1, 'the sleep to start');
    await target.dispose();
    await waitFor(() => exited(running), 'the sleep to end');
  });
});
