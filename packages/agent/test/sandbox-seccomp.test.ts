// The seccomp filter of every sandboxed command, with real bubblewrap: the calls it refuses fail with EPERM inside
// (perl's `syscall`, made the way an exploit would), the same calls work on the host (the control), and the
// commands an agent runs (a shell, node, python, perl, file tools) are unaffected.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import { deniedSystemCalls, seccompProgram } from '../src/sandbox/internal/seccomp-filter.js';
import { runSandboxed } from '../src/sandbox/run-sandboxed.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import { makeServerLayout, requireBubblewrap, type ServerLayout } from './support/sandbox-fixture.js';

let layout: ServerLayout;
let sandbox: Sandbox;

function sh(script: string) {
  return runSandboxed(sandbox, {
    command: '/bin/sh',
    args: ['-c', script],
    cwd: layout.workspace,
    env: { PATH: '/usr/bin:/bin' },
    wallTimeMs: 120_000,
  });
}

/** A perl one-liner making system call `number` with no arguments, printing `ok` or the error. */
const call = (number: number) => `perl -e '$r = syscall(${number}, 0, 0, 0, 0); print $r == -1 ? "$!" : "ok", "\\n"'`;

// ptrace(PTRACE_TRACEME) and keyctl(KEYCTL_GET_KEYRING_ID, 0): harmless calls that succeed or fail on their own
// terms on the host, never with EPERM.
const PTRACE = process.arch === 'arm64' ? 117 : 101;
const KEYCTL = process.arch === 'arm64' ? 219 : 250;

beforeAll(async () => {
  await requireBubblewrap();
  layout = makeServerLayout();
  sandbox = await createSandbox({ policy: {}, workspace: layout.workspace });
});

afterAll(async () => {
  await sandbox?.dispose();
  rmSync(layout.root, { recursive: true, force: true });
});

describe('the seccomp filter', () => {
  it('is built for this machine and refuses the kernel-facing calls', () => {
    const program = seccompProgram();
    expect(program).toBeDefined();
    expect((program as Buffer).length % 8).toBe(0);
    for (const name of ['ptrace', 'keyctl', 'bpf', 'perf_event_open', 'mount', 'io_uring_setup', 'kexec_load'])
      expect(deniedSystemCalls()).toContain(name);
    expect(seccompProgram('riscv64')).toBeUndefined();
  });

  it('makes ptrace and keyctl fail with EPERM inside, where the host (the control) gets no EPERM', async () => {
    for (const number of [PTRACE, KEYCTL]) {
      const host = spawnSync('/bin/sh', ['-c', call(number)], { encoding: 'utf8' });
      expect(host.stdout, `host ${number}`).not.toContain('Operation not permitted');
      const inside = await sh(call(number));
      expect(inside.stdout, `inside ${number}: ${inside.stderr}`).toBe('Operation not permitted\n');
    }
  });

  it('kills a process calling through the x32 ABI, which the host answers (ENOSYS or the call)', async () => {
    expect(process.arch, "x32 is x86-64's second ABI").toBe('x64');
    // getpid (39) with x32's bit: a harmless call, refused for its ABI alone.
    const script = `${call(0x40000000 + 39)}; echo "status $?"`;
    const host = spawnSync('/bin/sh', ['-c', script], { encoding: 'utf8' });
    expect(host.stdout).toMatch(/\nstatus 0\n$/);
    const inside = await sh(script);
    // 128 + SIGSYS (31): the kernel's answer to SECCOMP_RET_KILL_PROCESS.
    expect(inside.stdout, inside.stderr).toBe('status 159\n');
  });

  it('leaves what agents run alone, and leaves no descriptor of the filter open inside', async () => {
    const result = await sh(
      [
        'echo shell',
        "node -e \"console.log('node', require('node:fs').readdirSync('.').length >= 0)\"",
        'python3 -c "print(\'python\')" 2>/dev/null || echo python',
        'perl -e "print qq(perl\\n)"',
        'mkdir -p d && echo x > d/f && cat d/f && rm -r d',
        'ls /proc/self/fd | sort -n | tr "\\n" " "',
      ].join('\n'),
    );
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.slice(0, 5)).toEqual(['shell', 'node true', 'python', 'perl', 'x']);
    // stdio and the descriptor `ls` reads /proc/self/fd through: nothing of the launcher's.
    expect(
      lines[5]
        ?.trim()
        .split(' ')
        .map(Number)
        .filter((fd) => fd > 3),
    ).toEqual([]);
  });
});
