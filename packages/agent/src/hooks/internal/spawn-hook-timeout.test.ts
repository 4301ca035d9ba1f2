// A hook that outlives its timeout is killed with everything it started, a child that left its process group
// (`setsid`) included: without a sandbox's PID namespace to end them all, that child is found by its parentage.

import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Sandbox } from '../../sandbox/sandbox.js';
import { createUnsandboxedSandbox } from '../../sandbox/unsandboxed.js';
import { spawnHook } from './spawn-hook.js';

const sandboxes: Sandbox[] = [];
const dirs: string[] = [];
const pids: number[] = [];
afterEach(async () => {
  for (const pid of pids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone, as it should be.
    }
  }
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.dispose()));
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A killed process may linger as a zombie until reaped: that counts as dead. */
function isAlive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

describe('spawnHook at its timeout', () => {
  it('kills a child that left the hook’s process group', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'x-spawn-hook-'));
    dirs.push(dir);
    const sandbox = createUnsandboxedSandbox({ workspace: dir, warn: () => undefined });
    sandboxes.push(sandbox);
    const running = spawnHook({
      sandbox,
      command: `setsid sleep 100000 & echo $! > child.tmp && mv child.tmp child.pid; wait`,
      cwd: dir,
      env: { PATH: '/usr/bin:/bin' },
      stdin: '',
      // Long enough for the shell to start its child on a loaded machine; the test waits for it either way.
      timeoutMs: 5_000,
    });
    const childPid = Number(
      await vi.waitFor(() => readFile(join(dir, 'child.pid'), 'utf8'), { timeout: 60_000, interval: 20 }),
    );
    pids.push(childPid);
    expect(isAlive(childPid)).toBe(true);
    expect(await running).toMatchObject({ kind: 'timed_out' });
    await vi.waitFor(() => expect(isAlive(childPid)).toBe(false), { timeout: 60_000, interval: 20 });
  });
});
