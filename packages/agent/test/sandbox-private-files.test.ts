// The host side's own files (each allowlist's proxy socket and bridge script, the seccomp filter), against a hostile
// command whose policy mounts the host's temporary directory, where they are kept: with real bubblewrap. Before,
// such a command saw every other sandbox's proxy socket (a way out of `network: 'none'`, through another sandbox's
// allowlist) and bridge script, and the seccomp filter file, which it could replace for every later command.
import { lstatSync, readdirSync, readlinkSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import { sandboxPrivateRoot } from '../src/sandbox/internal/private-directory.js';
import { seccompFilterFile } from '../src/sandbox/internal/seccomp-filter.js';
import { InvalidSandboxPolicyError } from '../src/sandbox/invalid-sandbox-policy-error.js';
import { runSandboxed } from '../src/sandbox/run-sandboxed.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import type { SandboxPolicyInput } from '../src/sandbox/sandbox-policy.js';
import { makeServerLayout, requireBubblewrap, type ServerLayout } from './support/sandbox-fixture.js';

let layout: ServerLayout;
const sandboxes: Sandbox[] = [];
const temporary = realpathSync(tmpdir());

async function sandboxFor(policy: SandboxPolicyInput = {}): Promise<Sandbox> {
  const sandbox = await createSandbox({ policy, workspace: layout.workspace });
  sandboxes.push(sandbox);
  return sandbox;
}

async function bash(sandbox: Sandbox, script: string) {
  return runSandboxed(sandbox, {
    command: '/bin/bash',
    args: ['-c', script],
    cwd: layout.workspace,
    env: { PATH: '/usr/bin:/bin', HOME: layout.workspace },
    wallTimeMs: 120_000,
  });
}

/** Every path under `directory` (on the host, as this process sees it, on its file system) with one of `inodes`. */
function findOnHost(directory: string, inodes: readonly number[]): string[] {
  const found: string[] = [];
  const device = statSync(directory).dev;
  const walk = (path: string, depth: number): void => {
    let entries: string[];
    try {
      entries = readdirSync(path);
    } catch {
      return; // Removed while walked, or another user's.
    }
    for (const name of entries) {
      const child = join(path, name);
      try {
        const entry = lstatSync(child);
        if (entry.dev === device && inodes.includes(entry.ino)) found.push(child);
        if (entry.isDirectory() && depth < 3) walk(child, depth + 1);
      } catch {
        // Removed while walked.
      }
    }
  };
  walk(directory, 0);
  return found;
}

/** The inodes of this process's private files: the allowlisted sandbox's proxy socket and bridge, the filter. */
let privateInodes: number[];
let allowlisted: Sandbox;

/** What a command finds of them, anywhere in its view of the host's temporary directory, and in the private root. */
function findPrivateFiles(): string {
  const names = privateInodes.map((inode) => `-inum ${inode}`).join(' -o ');
  return [
    `find ${temporary} -xdev -maxdepth 4 \\( ${names} \\) 2>/dev/null`,
    `ls -A ${sandboxPrivateRoot()} 2>&1 | sed 's/^/root: /'`,
    'echo done',
  ].join('\n');
}

beforeAll(async () => {
  await requireBubblewrap();
  layout = makeServerLayout();
  // A sandbox with an allowlist, its proxy running (it starts with the first command), and a filter in use.
  allowlisted = await sandboxFor({ network: { mode: 'allowlist', hosts: ['example.invalid'] } });
  const started = await bash(allowlisted, 'stat -c %i /run/x-sandbox/proxy.sock /run/x-sandbox/bridge.cjs');
  expect(started.exitCode, started.stderr).toBe(0);
  privateInodes = [...started.stdout.trim().split('\n').map(Number), statSync(seccompFilterFile() as string).ino];
});

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.dispose()));
  rmSync(layout.root, { recursive: true, force: true });
});

describe("the host side's private files", () => {
  it('are in the host temporary directory (so the look from inside below could find them)', () => {
    expect(findOnHost(temporary, privateInodes.slice(0, 2))).toHaveLength(2);
  });

  it('are out of sight of a command whose policy mounts the host temporary directory, writable or readable', async () => {
    const policies: SandboxPolicyInput[] = [
      { writablePaths: [temporary] },
      { readablePaths: [temporary] },
      { readablePaths: ['/'] },
      { writablePaths: [temporary], network: { mode: 'allowlist', hosts: ['example.invalid'] } },
    ];
    for (const policy of policies) {
      const result = await bash(await sandboxFor(policy), findPrivateFiles());
      expect(result.exitCode, JSON.stringify(policy)).toBe(0);
      expect(result.stdout.trim().split('\n'), JSON.stringify(policy)).toEqual(['done']);
    }
    // The host temporary directory as the workspace itself.
    const inTemporary = await createSandbox({ policy: {}, workspace: temporary });
    sandboxes.push(inTemporary);
    const result = await runSandboxed(inTemporary, {
      command: '/bin/bash',
      args: ['-c', findPrivateFiles()],
      cwd: temporary,
      env: { PATH: '/usr/bin:/bin' },
      wallTimeMs: 120_000,
    });
    expect(result.stdout.trim().split('\n')).toEqual(['done']);
  });

  it('cannot be renamed, removed or replaced from inside, and the next sandbox still runs behind its proxy', async () => {
    const hostile = await sandboxFor({ writablePaths: [temporary] });
    const root = sandboxPrivateRoot();
    const result = await bash(
      hostile,
      [
        `mv ${root} ${root}.moved 2>/dev/null && echo renamed`,
        `rm -rf ${root} 2>/dev/null; test -d ${root} || echo removed`,
        `mkdir ${root}/planted 2>/dev/null && echo planted`,
        'echo done',
      ].join('\n'),
    );
    expect(result.stdout.trim()).toBe('done');
    const again = await bash(allowlisted, 'test -S /run/x-sandbox/proxy.sock && echo proxied');
    expect(again.stdout.trim()).toBe('proxied');
  });

  it('leave no seccomp filter on disk: the launcher opens it through a descriptor of this process', async () => {
    const prepared = await allowlisted.prepare({ command: '/bin/true', args: [], cwd: layout.workspace, env: {} });
    await prepared.release();
    const opened = /exec 3<'(\/proc\/(\d+)\/fd\/\d+)'/.exec(prepared.args.join(' '));
    expect(opened?.[2]).toBe(String(process.pid));
    expect(readlinkSync(opened?.[1] as string)).toMatch(/ \(deleted\)$/);
    expect(findOnHost(temporary, privateInodes.slice(2))).toEqual([]);
  });
});

describe('a writable path that holds the directory of the private files', () => {
  it('is refused, naming it: a command could rename that directory and plant files of its own', async () => {
    await expect(createSandbox({ policy: { writablePaths: ['/'] }, workspace: layout.workspace })).rejects.toThrow(
      InvalidSandboxPolicyError,
    );
    await expect(createSandbox({ policy: { writablePaths: ['/'] }, workspace: layout.workspace })).rejects.toThrow(
      `The writable path / holds ${temporary}`,
    );
    // The temporary directory itself may be writable: only the private root inside it is a mount point (hidden).
    const allowed = await sandboxFor({ writablePaths: [temporary] });
    expect(
      (await bash(allowed, `f=${temporary}/x-private-files-probe-$$; touch $f && echo wrote; rm -f $f`)).stdout.trim(),
    ).toBe('wrote');
  });
});
