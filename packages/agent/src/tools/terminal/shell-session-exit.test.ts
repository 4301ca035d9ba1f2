// A real bash in the unsandboxed sandbox (which kills what it started only when disposed): what the session itself
// does when its shell exits, and what it costs the process to start many sessions.
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Sandbox } from '../../sandbox/sandbox.js';
import { createUnsandboxedSandbox } from '../../sandbox/unsandboxed.js';
import { ShellSession } from './shell-session.js';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.dispose()));
});

function bashSession(): ShellSession {
  const sandbox = createUnsandboxedSandbox({ policy: {}, workspace: tmpdir(), warn: () => undefined });
  sandboxes.push(sandbox);
  return new ShellSession({
    shell: '/bin/bash',
    cwd: tmpdir(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    keepChars: 10_000,
    sandbox,
  });
}

/** Whether `pid` is gone: no such process, or a zombie left for a parent that does not reap it. */
async function ended(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat === undefined || /^\d+ \(.*\) Z /.test(stat);
}

describe('ShellSession', () => {
  it('kills the background jobs of a shell that exits, before anything disposes of its sandbox', async () => {
    const session = bashSession();
    await session.start();
    session.send('sleep 60107 & echo "job=$!"; exit 3');
    expect(await session.wait({})).toBe('exited');
    expect(session.exitCode).toBe(3);
    const pid = Number(/job=(\d+)/.exec(session.takeOutput().head)?.[1]);
    expect(pid).toBeGreaterThan(0);
    await vi.waitFor(async () => expect(await ended(pid)).toBe(true), { timeout: 20_000, interval: 50 });
    session.close();
  });

  it('adds one exit hook to the process however many sessions start', async () => {
    const sessions = Array.from({ length: 3 }, () => bashSession());
    await sessions[0]?.start();
    const hooks = process.listenerCount('exit');
    for (const session of sessions.slice(1)) await session.start();
    expect(process.listenerCount('exit')).toBe(hooks);
    for (const session of sessions) session.close();
  });
});
