// The seccomp filter against a command reaching into other processes and namespaces, with real bubblewrap: every
// call of the list fails inside (EPERM; clone3 ENOSYS, so that glibc falls back to clone, whose flags the filter
// reads), made with perl's `syscall` the way an exploit would. The control is the same bubblewrap sandbox without the
// filter, where the calls added to the list answer otherwise. And what agents run, threads and child processes
// included (glibc tries clone3 first for both), works.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBwrapArgs } from '../src/sandbox/bwrap-args.js';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import { detectSandboxSupport } from '../src/sandbox/detect-sandbox-support.js';
import { readHostLayout } from '../src/sandbox/internal/host-layout.js';
import { deniedSystemCalls, unreadableSystemCalls } from '../src/sandbox/internal/seccomp-filter.js';
import { runSandboxed } from '../src/sandbox/run-sandboxed.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import { makeServerLayout, requireBubblewrap, type ServerLayout } from './support/sandbox-fixture.js';

let layout: ServerLayout;
let sandbox: Sandbox;

const CLONE_NEWUSER = 0x10000000;
const SIGCHLD = 17;

/**
 * A perl script making each call `name[:first argument]` (the others 0) and printing `name errno-name` or `name ok`.
 * A clone that succeeds exits at once in the child.
 */
const PROBE = `use POSIX; use Errno; require "syscall.ph";
for (@ARGV) {
  my ($name, $arg) = split /:/; my $nr = eval "&SYS_$name";
  # "+ 0": perl passes a string to syscall as a pointer to its bytes, a number as itself.
  my $r = syscall($nr, ($arg // 0) + 0, 0, 0, 0, 0);
  POSIX::_exit(0) if $r == 0 && $name =~ /^clone/;
  my ($errno) = grep { $!{$_} } keys %!;
  print "$name ", ($r == -1 ? $errno : "ok"), "\\n";
}`;

function probeArgs(names: readonly string[]): string[] {
  return ['-e', PROBE, ...names];
}

function answers(stdout: string): Map<string, string> {
  return new Map(
    stdout
      .trim()
      .split('\n')
      .map((line) => line.split(' ') as [string, string]),
  );
}

/** The calls as inside `sandbox`, through the real launcher. */
async function inside(names: readonly string[]): Promise<Map<string, string>> {
  const result = await runSandboxed(sandbox, {
    command: '/usr/bin/perl',
    args: probeArgs(names),
    cwd: layout.workspace,
    env: { PATH: '/usr/bin:/bin' },
    wallTimeMs: 120_000,
  });
  expect(result.exitCode, result.stderr).toBe(0);
  return answers(result.stdout);
}

/** The control: the same bubblewrap sandbox (namespaces, mounts, dropped capabilities), without the filter. */
async function unfiltered(names: readonly string[]): Promise<Map<string, string>> {
  const support = await detectSandboxSupport();
  if (!support.available) throw new Error(support.reason);
  const args = buildBwrapArgs({
    workspace: layout.workspace,
    cwd: layout.workspace,
    network: 'none',
    writablePaths: [],
    readablePaths: [],
    ...readHostLayout(),
    argv: ['/usr/bin/perl', ...probeArgs(names)],
  });
  const result = spawnSync(support.bwrap, args, { encoding: 'utf8', env: { PATH: '/usr/bin:/bin' } });
  expect(result.status, result.stderr).toBe(0);
  return answers(result.stdout);
}

beforeAll(async () => {
  await requireBubblewrap();
  layout = makeServerLayout();
  sandbox = await createSandbox({ policy: {}, workspace: layout.workspace });
});

afterAll(async () => {
  await sandbox?.dispose();
  rmSync(layout.root, { recursive: true, force: true });
});

describe('calls that reach into other processes or namespaces', () => {
  const added = ['pidfd_getfd', 'process_madvise', 'kcmp', 'setns', `unshare:${CLONE_NEWUSER}`, 'clone3'];
  const cloneNewUser = `clone:${CLONE_NEWUSER | SIGCHLD}`;

  it('are refused inside, clone3 with ENOSYS and a clone asking for a user namespace with EPERM', async () => {
    const got = await inside([...added, cloneNewUser]);
    expect(Object.fromEntries(got)).toEqual({
      pidfd_getfd: 'EPERM',
      process_madvise: 'EPERM',
      kcmp: 'EPERM',
      setns: 'EPERM',
      unshare: 'EPERM',
      clone3: 'ENOSYS',
      clone: 'EPERM',
    });
  });

  it('answer otherwise in the same sandbox without the filter (the control)', async () => {
    const got = await unfiltered([...added, cloneNewUser]);
    for (const name of ['pidfd_getfd', 'process_madvise', 'kcmp', 'setns', 'unshare', 'clone'])
      expect(got.get(name), name).not.toBe('EPERM');
    expect(got.get('clone3')).not.toBe('ENOSYS');
  });
});

describe('every call of the list', () => {
  it('fails inside with EPERM (clone3, openat2: ENOSYS)', async () => {
    const names = deniedSystemCalls();
    const got = await inside(names);
    for (const name of names)
      expect(got.get(name), name).toBe(unreadableSystemCalls().includes(name) ? 'ENOSYS' : 'EPERM');
  });
});

describe('what agents run', () => {
  it('starts threads and processes (glibc falls back from clone3 to clone), in bash, python, node and git', async () => {
    const script = [
      'sleep 0 & wait $! && echo bash',
      `python3 -c "
import threading, subprocess, os
out = []
t = threading.Thread(target=lambda: out.append(subprocess.run(['echo', 'python'], capture_output=True, text=True).stdout.strip()))
t.start(); t.join()
pid = os.posix_spawn('/bin/true', ['true'], {})
print(out[0], 'spawned' if os.waitpid(pid, 0)[1] == 0 else 'failed')"`,
      `node -e "
const { Worker } = require('node:worker_threads');
const { execFileSync } = require('node:child_process');
new Worker('require(\\'node:worker_threads\\').parentPort.postMessage(1)', { eval: true }).on('message', () =>
  console.log(String(execFileSync('echo', ['node'])).trim(), 'worker'));"`,
      'git init -q repo && cd repo && echo x > f && git add f && git -c user.name=a -c user.email=a@b commit -qm m && git log --format=%s',
    ].join('\n');
    const result = await runSandboxed(sandbox, {
      command: '/bin/bash',
      args: ['-c', script],
      cwd: layout.workspace,
      env: { PATH: '/usr/bin:/bin' },
      wallTimeMs: 120_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual(['bash', 'python spawned', 'node worker', 'm']);
  });
});
