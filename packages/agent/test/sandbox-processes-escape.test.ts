// The host's processes against a hostile command in the real sandbox: this test process plays the server (a
// secret in its environment and on its command line) and keeps a canary process running beside it. From inside,
// every way to another process (/proc by pid, by /proc/self/.., through a readable /proc of the policy, `ps`,
// signals, ptrace's /proc/<pid>/mem, a nested namespace, a setuid binary, /dev/shm) must find nothing of them.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import { runSandboxed } from '../src/sandbox/run-sandboxed.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import type { SandboxPolicyInput } from '../src/sandbox/sandbox-policy.js';
import { makeServerLayout, requireBubblewrap, type ServerLayout, waitFor } from './support/sandbox-fixture.js';

const ENV_SECRET = `env-secret-${randomBytes(8).toString('hex')}`;
const ARGV_SECRET = `argv-secret-${randomBytes(8).toString('hex')}`;
const CANARY_SECONDS = 600_000 + Math.floor(Math.random() * 100_000);
const SHM_FILE = `/dev/shm/x-escape-${randomBytes(6).toString('hex')}`;

let layout: ServerLayout;
let canary: ChildProcess;
const sandboxes: Sandbox[] = [];

async function sandboxFor(policy: SandboxPolicyInput = {}): Promise<Sandbox> {
  const sandbox = await createSandbox({ policy, workspace: layout.workspace });
  sandboxes.push(sandbox);
  return sandbox;
}

function sh(sandbox: Sandbox, script: string) {
  return runSandboxed(sandbox, {
    command: '/bin/bash',
    args: ['-c', script],
    cwd: layout.workspace,
    env: { PATH: '/usr/bin:/bin', HOME: layout.workspace },
    wallTimeMs: 120_000,
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  await requireBubblewrap();
  layout = makeServerLayout();
  process.env.X_SERVER_API_KEY = ENV_SECRET;
  process.title = `x-server --api-key=${ARGV_SECRET}`;
  // A host process carrying both secrets, as a server's worker would.
  canary = spawn('/bin/sleep', [String(CANARY_SECONDS)], {
    env: { X_SERVER_API_KEY: ENV_SECRET, ARGV: ARGV_SECRET },
    stdio: 'ignore',
  });
  writeFileSync(SHM_FILE, layout.fileSecret);
});

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.dispose()));
  canary.kill('SIGKILL');
  delete process.env.X_SERVER_API_KEY;
  rmSync(SHM_FILE, { force: true });
  rmSync(layout.root, { recursive: true, force: true });
});

/** Reads everything a process exposes under /proc, for every pid the sandbox can name. */
const READ_EVERY_PROCESS = [
  // Every pid listed, and the host's own pids tried by number (they are not listed but might still resolve).
  `for p in /proc/[0-9]* /proc/self/../[0-9]* /proc/${process.pid} /proc/$CANARY /proc/1/root/proc/[0-9]*; do`,
  '  cat $p/environ $p/cmdline 2>/dev/null | tr "\\0" " "; echo;',
  // ptrace access: the memory of another process (only one the sandbox owns can be read at all).
  '  head -c 65536 $p/mem 2>/dev/null | tr -dc "[:print:]"; echo;',
  // A descriptor that is a pipe may block: a second bounds it (a bound, not a condition waited for).
  '  for f in $p/fd/*; do timeout 1 head -c 4096 "$f" 2>/dev/null </dev/null | tr -dc "[:print:]"; done;',
  '  ls $p/root/ $p/cwd/ 2>/dev/null | tr "\\n" " "; echo;',
  'done',
  'ps -eo pid,args',
].join('\n');

describe('the processes of the host', () => {
  it('are in no /proc the sandbox can read, by any pid or path, nor in `ps`', async () => {
    // The control: unsandboxed, the canary's command line and this process's title are there.
    const control = spawnSync('/bin/bash', ['-c', 'cat /proc/[0-9]*/cmdline 2>/dev/null | tr "\\0" " "'], {
      env: { PATH: '/usr/bin:/bin' },
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    expect(control.stdout).toContain(String(CANARY_SECONDS));
    expect(control.stdout).toContain(ARGV_SECRET);

    const result = await runSandboxed(await sandboxFor(), {
      command: '/bin/bash',
      args: ['-c', READ_EVERY_PROCESS],
      cwd: layout.workspace,
      env: { PATH: '/usr/bin:/bin', CANARY: String(canary.pid) },
      wallTimeMs: 120_000,
    });
    const seen = `${result.stdout}${result.stderr}`;
    for (const secret of [ENV_SECRET, ARGV_SECRET, String(CANARY_SECONDS), 'server-secrets.json'])
      expect(seen).not.toContain(secret);
  });

  it('stay out of sight when the policy mounts /proc readable: the sandbox mounts its own on top', async () => {
    for (const policy of [{ readablePaths: ['/proc'] }, { readablePaths: ['/proc/self', '/proc/1'] }]) {
      const result = await sh(await sandboxFor(policy), `${READ_EVERY_PROCESS}; ls /proc | grep -c '^[0-9]'`);
      const seen = `${result.stdout}${result.stderr}`;
      expect(seen).not.toContain(ARGV_SECRET);
      expect(seen).not.toContain(String(CANARY_SECONDS));
      expect(Number.parseInt(result.stdout.trim().split('\n').at(-1) ?? '', 10)).toBeLessThan(10);
    }
  });

  it('cannot be signalled: kill -9 -1, the parent, the host pids by number', async () => {
    const result = await sh(
      await sandboxFor(),
      `kill -9 ${process.pid} ${canary.pid}; echo "by-pid=$?"; kill -9 -1; kill -TERM $PPID; echo after`,
    );
    expect(result.stdout).toMatch(/by-pid=1/);
    expect(alive(canary.pid as number)).toBe(true);
    expect(alive(process.pid)).toBe(true);
  });
});

describe('privileges inside', () => {
  it('none to gain: no capabilities, no_new_privs (setuid binaries gain nothing), no nested namespace, sandbox or mount', async () => {
    const result = await sh(
      await sandboxFor(),
      [
        'grep -E "^(CapEff|CapPrm|CapBnd|NoNewPrivs)" /proc/self/status',
        'unshare -U true 2>/dev/null && echo "userns=yes"',
        'unshare -r true 2>/dev/null && echo "root-map=yes"',
        'unshare -m true 2>/dev/null && echo "mountns=yes"',
        '/usr/bin/bwrap --ro-bind / / true 2>/dev/null && echo "nested-bwrap=yes"',
        'mount -t tmpfs none /tmp 2>/dev/null && echo "mount=yes"',
        'umount /etc 2>/dev/null && echo "umount=yes"',
        'su -c true 2>/dev/null && echo "su=yes"',
        'echo done',
      ].join('\n'),
    );
    expect(result.stdout).toMatch(/CapEff:\s+0+\n/);
    expect(result.stdout).toMatch(/CapBnd:\s+0+\n/);
    expect(result.stdout).toMatch(/NoNewPrivs:\s+1/);
    expect(result.stdout).not.toMatch(/=yes/);
    expect(result.stdout).toContain('done');
  });
});

describe('shared memory and IPC of the host', () => {
  it('/dev/shm is the sandbox own, empty', async () => {
    expect(existsSync(SHM_FILE)).toBe(true);
    const result = await sh(await sandboxFor(), `ls -A /dev/shm; cat ${SHM_FILE}; ipcs -m 2>/dev/null | grep -c '^0x'`);
    expect(`${result.stdout}${result.stderr}`).not.toContain(layout.fileSecret);
    expect(result.stdout).not.toContain('x-escape-');
  });
});

describe('processes a command leaves behind', () => {
  it('die with the sandbox at dispose(), however they detached (setsid, nohup, double fork, disown)', async () => {
    const tag = 500_000 + Math.floor(Math.random() * 100_000);
    const sandbox = await createSandbox({ policy: {}, workspace: layout.workspace });
    const child = await sandbox.spawn({
      command: '/bin/bash',
      args: [
        '-c',
        `setsid sleep ${tag} & nohup sleep ${tag} >/dev/null 2>&1 & (sleep ${tag} &) ; sleep ${tag} & disown; exec sleep ${tag}`,
      ],
      cwd: layout.workspace,
      env: { PATH: '/usr/bin:/bin' },
      stdio: 'ignore',
    });
    const sleeps = () =>
      spawnSync('pgrep', ['-fx', `sleep ${tag}`], { encoding: 'utf8' })
        .stdout.trim()
        .split('\n');
    await waitFor(() => sleeps().filter(Boolean).length === 5, 'the five sleeps to start');
    await sandbox.dispose();
    await waitFor(() => sleeps().filter(Boolean).length === 0, 'every sleep to be gone');
    await waitFor(() => child.exitCode !== null || child.signalCode !== null, 'the sandbox to exit');
  });
});

describe('a sandbox whose bubblewrap is killed from outside its group', () => {
  it('still dies whole by its cgroups (kill), never resting on the parent-death signal alone', async () => {
    const tag = 400_000 + Math.floor(Math.random() * 100_000);
    const sandbox = await sandboxFor();
    const prepared = await sandbox.prepare({
      command: '/bin/bash',
      args: ['-c', `setsid sleep ${tag} & (sleep ${tag} &); exec sleep ${tag}`],
      cwd: layout.workspace,
      env: { PATH: '/usr/bin:/bin' },
    });
    // This host lets the server make a cgroup for a sandbox (a writable pids or memory hierarchy): what this is about.
    expect(prepared.args.join(' '), 'a cgroup for the sandbox on this host').toContain('cgroup.procs');
    const child = spawn(prepared.command, prepared.args, { cwd: prepared.cwd, env: prepared.env, stdio: 'ignore' });
    const sleeps = () =>
      spawnSync('pgrep', ['-fx', `sleep ${tag}`], { encoding: 'utf8' })
        .stdout.trim()
        .split('\n')
        .filter(Boolean);
    await waitFor(() => sleeps().length === 3, 'the three sleeps to start');
    await prepared.kill?.();
    await waitFor(() => sleeps().length === 0, 'every sleep to be gone');
    await waitFor(() => child.exitCode !== null || child.signalCode !== null, 'the sandbox to exit');
    await prepared.release();
  });
});

describe("the sandbox's /tmp", () => {
  it('holds no more than the memory limit (it is memory: a tmpfs), with or without a memory cgroup', async () => {
    const memoryBytes = 64 * 1024 * 1024;
    const result = await sh(await sandboxFor({ limits: { memoryBytes } }), 'df -B1 --output=size /tmp | tail -1');
    expect(Number.parseInt(result.stdout.trim(), 10)).toBeLessThanOrEqual(memoryBytes);
  });
});
