// What the terminal, MCP stdio and the server's routes need from the sandbox, with real bubblewrap: a
// long-lived shell on pipes, interrupting its command without killing it, the memory limit, refusing a
// directory outside the sandbox, and no cgroup left behind.
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import { discoverCgroupHierarchies } from '../src/sandbox/internal/cgroups.js';
import { runSandboxed } from '../src/sandbox/run-sandboxed.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import { SandboxCommandError } from '../src/sandbox/sandbox-command-error.js';
import { makeServerLayout, requireBubblewrap, type ServerLayout, waitFor } from './support/sandbox-fixture.js';

let layout: ServerLayout;

beforeAll(async () => {
  await requireBubblewrap();
  layout = makeServerLayout();
});

afterAll(() => rmSync(layout.root, { recursive: true, force: true }));

function env(): Record<string, string> {
  return { PATH: '/usr/bin:/bin', HOME: layout.workspace };
}

/** This process's sandbox cgroups still on disk, in every hierarchy it can use. */
function ownCgroups(): string[] {
  const hierarchies = discoverCgroupHierarchies();
  return [hierarchies.pidsV1, hierarchies.memoryV1, hierarchies.v2?.dir].flatMap((parent) => {
    if (parent === undefined) return [];
    try {
      return readdirSync(parent).filter((name) => name.startsWith(`x-sandbox-${process.pid}-`));
    } catch {
      return [];
    }
  });
}

describe('a long-lived shell in the sandbox', () => {
  let sandbox: Sandbox;
  let shell: ChildProcess;
  let output = '';

  beforeAll(async () => {
    sandbox = await createSandbox({ policy: { limits: { processes: 64 } }, workspace: layout.workspace });
    shell = await sandbox.spawn({
      command: '/bin/bash',
      args: ['--norc', '--noprofile'],
      cwd: layout.workspace,
      env: env(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    shell.stdout?.setEncoding('utf8');
    shell.stdout?.on('data', (chunk: string) => {
      output += chunk;
    });
  });

  afterAll(async () => {
    await sandbox.dispose();
  });

  it('keeps its state between commands', async () => {
    shell.stdin?.write('cd /tmp && export GREETING=hello && echo ready-1\n');
    await waitFor(() => output.includes('ready-1'), 'the first command');
    shell.stdin?.write('echo "$GREETING from $(pwd)"\n');
    await waitFor(() => output.includes('hello from /tmp'), 'the second command');
  });

  it('signal() interrupts the running command and the shell survives it', async () => {
    shell.stdin?.write('trap "echo shell-got-int" INT; sleep 100000; echo "sleep ended $?"\n');
    await waitFor(hasSleep, 'sleep to run');
    sandbox.signal(shell.pid ?? -1, 'SIGINT');
    await waitFor(() => /sleep ended 130|shell-got-int/.test(output), 'the interrupted sleep');
    shell.stdin?.write('echo still-alive\n');
    await waitFor(() => output.includes('still-alive'), 'the shell to answer');
    expect(shell.exitCode).toBeNull();
  });

  function hasSleep(): boolean {
    return readdirSync('/proc').some((name) => {
      try {
        return /^\d+$/.test(name) && readFileSync(`/proc/${name}/cmdline`, 'utf8').startsWith('sleep\u0000100000');
      } catch {
        return false;
      }
    });
  }
});

describe('the sandbox refuses and cleans up', () => {
  it('refuses a directory outside every mounted path', async () => {
    const sandbox = await createSandbox({ policy: {}, workspace: layout.workspace });
    await expect(
      runSandboxed(sandbox, { command: '/bin/true', args: [], cwd: layout.siblingWorkspace, env: env() }),
    ).rejects.toBeInstanceOf(SandboxCommandError);
    await sandbox.dispose();
  });

  it('a memory hog is killed at the memory limit (a memory cgroup) or fails to allocate (RLIMIT_DATA)', async () => {
    const sandbox = await createSandbox({
      policy: { limits: { memoryBytes: 64_000_000 } },
      workspace: layout.workspace,
    });
    const script = `exec ${process.execPath} -e "const a = []; for (;;) a.push(Buffer.alloc(1 << 20, 1))"`;
    const result = await runSandboxed(sandbox, {
      command: '/bin/sh',
      args: ['-c', script],
      cwd: layout.workspace,
      env: env(),
      wallTimeMs: 120_000,
    });
    await sandbox.dispose();
    expect(result.exitCode).not.toBe(0);
    expect(result.limit === 'memory' || result.limit === undefined).toBe(true);
    if (discoverCgroupHierarchies().memoryV1 !== undefined) expect(result.limit).toBe('memory');
  });

  it('leaves no cgroup behind once its commands are released', async () => {
    const sandbox = await createSandbox({
      policy: { limits: { processes: 32, memoryBytes: 500_000_000 } },
      workspace: layout.workspace,
    });
    const child = await sandbox.spawn({
      command: '/bin/sleep',
      args: ['100000'],
      cwd: layout.workspace,
      env: env(),
      stdio: 'ignore',
    });
    await waitFor(() => ownCgroups().length > 0, 'the cgroups to exist');
    await sandbox.dispose();
    await waitFor(() => child.exitCode !== null || child.signalCode !== null, 'the sandbox to exit');
    await waitFor(() => ownCgroups().length === 0, 'the cgroups to be removed');
  });
});
