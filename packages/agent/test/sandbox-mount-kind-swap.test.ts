// A path of the policy that another sandbox replaces with a FIFO (named pipe), with real bubblewrap. Opening a FIFO
// for reading waits for a writer: a launcher that opened the path by name would hang there, and the victim's command
// with it, until its wall time. The path must be refused at once instead (exit 125, naming it), before and after the
// command was prepared.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readlinkSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import { runSandboxed } from '../src/sandbox/run-sandboxed.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import type { SandboxPolicyInput } from '../src/sandbox/sandbox-policy.js';
import { makeServerLayout, requireBubblewrap, type ServerLayout } from './support/sandbox-fixture.js';

/** Long enough never to be reached by a command that is refused (or runs), short enough to end a hanging test. */
const WALL_TIME_MS = 40_000;

let layout: ServerLayout;
let ownDirectory: string;
const sandboxes: Sandbox[] = [];

async function sandboxFor(policy: SandboxPolicyInput): Promise<Sandbox> {
  const sandbox = await createSandbox({ policy, workspace: layout.workspace });
  sandboxes.push(sandbox);
  return sandbox;
}

/** The other conversation's command: `path` renamed away and a FIFO made in its place. */
function swapForFifo(path: string): void {
  renameSync(path, `${path}.moved`);
  const made = spawnSync('mkfifo', [path]);
  if (made.status !== 0) throw new Error(`mkfifo ${path}: ${made.stderr}`);
}

function putBack(path: string): void {
  rmSync(path);
  renameSync(`${path}.moved`, path);
}

/** This process's descriptors open on `path`. */
function descriptorsOn(path: string): string[] {
  return readdirSync('/proc/self/fd').filter((descriptor) => {
    try {
      return readlinkSync(`/proc/self/fd/${descriptor}`) === path;
    } catch {
      return false;
    }
  });
}

function run(sandbox: Sandbox, script: string) {
  return runSandboxed(sandbox, {
    command: '/bin/sh',
    args: ['-c', script],
    cwd: ownDirectory,
    env: { PATH: '/usr/bin:/bin' },
    wallTimeMs: WALL_TIME_MS,
  });
}

beforeAll(async () => {
  await requireBubblewrap();
  layout = makeServerLayout();
  ownDirectory = join(layout.root, 'own');
  mkdirSync(ownDirectory);
});

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.dispose()));
  rmSync(layout.root, { recursive: true, force: true });
});

describe('a path of the policy swapped for a FIFO', () => {
  it('is refused at once, naming it, whether it was a readable directory or a readable file', async () => {
    const directory = join(layout.siblingWorkspace, 'shared-dir');
    mkdirSync(directory);
    const file = join(layout.siblingWorkspace, 'shared.txt');
    writeFileSync(file, 'shared');
    const sandbox = await sandboxFor({ readablePaths: [directory, file], writablePaths: [ownDirectory] });
    const before = await run(sandbox, `cat "${file}" && ls -d "${directory}" && echo ran`);
    expect(before.stdout).toContain('ran');

    for (const path of [directory, file]) {
      swapForFifo(path);
      const result = await run(sandbox, 'echo ran');
      expect(result.limit).toBeUndefined();
      expect(result.exitCode).toBe(125);
      expect(result.stdout).not.toContain('ran');
      expect(result.stderr).toContain(`the mounted path ${path} is a FIFO (named pipe) now`);
      putBack(path);
    }

    const after = await run(sandbox, `cat "${file}" && ls -d "${directory}" && echo ran`);
    expect(after.stdout).toContain('ran');
  }, 120_000);

  it('is refused at once when swapped after the command was prepared, just before its launcher starts', async () => {
    const directory = join(layout.siblingWorkspace, 'late-dir');
    mkdirSync(directory);
    const sandbox = await sandboxFor({ readablePaths: [directory], writablePaths: [ownDirectory] });
    const prepared = await sandbox.prepare({ command: '/bin/true', args: [], cwd: ownDirectory, env: {} });
    try {
      swapForFifo(directory);
      // The timeout only ends a launcher that hangs (the failure this guards against); it is never reached otherwise.
      const result = spawnSync(prepared.command, prepared.args, {
        cwd: prepared.cwd,
        env: prepared.env,
        encoding: 'utf8',
        timeout: WALL_TIME_MS,
      });
      expect(result.signal).toBeNull();
      expect(result.status).toBe(125);
      expect(result.stderr).toContain(`the mounted path ${directory} is gone, or is not where the sandbox found it`);
    } finally {
      await prepared.release();
      putBack(directory);
    }
  }, 120_000);

  it('refuses a path of another kind than it had: a readable directory made a regular file', async () => {
    const directory = join(layout.siblingWorkspace, 'kind-dir');
    mkdirSync(directory);
    const sandbox = await sandboxFor({ readablePaths: [directory], writablePaths: [ownDirectory] });
    renameSync(directory, `${directory}.moved`);
    writeFileSync(directory, 'a file in its place');
    try {
      const result = await run(sandbox, 'echo ran');
      expect(result.exitCode).toBe(125);
      expect(result.stderr).toContain(
        `the mounted path ${directory} is a regular file now, not the directory the sandbox found there`,
      );
    } finally {
      putBack(directory);
    }
  }, 120_000);
});

describe('the descriptors the server holds on the paths of the policy', () => {
  it('are held from prepare until the command is released, and no longer', async () => {
    const directory = join(layout.siblingWorkspace, 'held-dir');
    mkdirSync(directory);
    const sandbox = await sandboxFor({ readablePaths: [directory], writablePaths: [ownDirectory] });
    const prepared = await sandbox.prepare({ command: '/bin/true', args: [], cwd: ownDirectory, env: {} });
    expect(descriptorsOn(directory)).toHaveLength(1);
    await prepared.release();
    expect(descriptorsOn(directory)).toEqual([]);
    const result = await run(sandbox, `ls -d "${directory}"`);
    expect(result.exitCode).toBe(0);
    expect(descriptorsOn(directory)).toEqual([]);
  }, 120_000);
});
