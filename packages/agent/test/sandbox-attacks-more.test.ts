// More attacks of a hostile command on the host, with real bubblewrap: the kernel's settings under /proc/sys (which
// root inside, the host's root when the server runs as root, could write), the hypervisor's vsock (which no network
// namespace holds), the terminal the server was started from (keystrokes pushed into it with TIOCSTI), and the
// sandbox's own init (the one process inside that is not the command), and the memory of /dev (a tmpfs) on a host
// without a memory cgroup.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapSandbox } from '../src/sandbox/bubblewrap-sandbox.js';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import { detectSandboxSupport } from '../src/sandbox/detect-sandbox-support.js';
import { readHostLayout } from '../src/sandbox/internal/host-layout.js';
import { runSandboxed } from '../src/sandbox/run-sandboxed.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import { type SandboxPolicyInput, sandboxPolicySchema } from '../src/sandbox/sandbox-policy.js';
import { makeServerLayout, requireBubblewrap, type ServerLayout } from './support/sandbox-fixture.js';

let layout: ServerLayout;
const sandboxes: Sandbox[] = [];

async function sandboxFor(policy: SandboxPolicyInput = {}): Promise<Sandbox> {
  const sandbox = await createSandbox({ policy, workspace: layout.workspace });
  sandboxes.push(sandbox);
  return sandbox;
}

async function bash(script: string, policy: SandboxPolicyInput = {}) {
  return runSandboxed(await sandboxFor(policy), {
    command: '/bin/bash',
    args: ['-c', script],
    cwd: layout.workspace,
    env: { PATH: '/usr/bin:/bin', HOME: layout.workspace },
    wallTimeMs: 120_000,
  });
}

beforeAll(async () => {
  await requireBubblewrap();
  layout = makeServerLayout();
});

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.dispose()));
  rmSync(layout.root, { recursive: true, force: true });
});

describe("the kernel's settings (/proc/sys)", () => {
  // A sysctl checks its file's mode against the host's root, not capabilities: a server running as root runs its
  // sandboxes as the host's root. kernel.core_pattern names a program the kernel runs as root, on the host, at the
  // next crash: the workspace is at the same path on the host. Its own value is written back, so a write that
  // gets through changes nothing.
  const WRITE_BACK = [
    'value=$(cat /proc/sys/kernel/core_pattern)',
    'if printf "%s\\n" "$value" > /proc/sys/kernel/core_pattern; then echo written; else echo refused; fi',
    'grep " /proc/sys " /proc/self/mountinfo | cut -d" " -f5,6',
  ].join('\n');

  it('cannot be written, by any policy: /proc/sys is read-only inside, a readable /proc of the policy included', async () => {
    for (const policy of [{}, { network: { mode: 'all' } }, { readablePaths: ['/proc'] }] as SandboxPolicyInput[]) {
      const result = await bash(WRITE_BACK, policy);
      const [outcome, mount] = result.stdout.trim().split('\n');
      expect(outcome, `${JSON.stringify(policy)}: ${result.stderr}`).toBe('refused');
      expect(mount?.split(' ')[0], JSON.stringify(policy)).toBe('/proc/sys');
      expect(mount?.split(' ')[1]?.split(',')).toContain('ro');
    }
  });

  it("still read as the sandbox's own: its hostname, its network's interfaces, its PIDs", async () => {
    const result = await bash(
      'cat /proc/sys/kernel/hostname; ls /proc/sys/net/ipv4/conf | tr "\\n" " "; echo; cat /proc/sys/kernel/ns_last_pid',
    );
    const [hostname, interfaces, lastPid] = result.stdout.trim().split('\n');
    expect(hostname, result.stderr).toBe('sandbox');
    expect(interfaces?.trim().split(' ').sort()).toEqual(['all', 'default', 'lo']);
    expect(Number(lastPid)).toBeLessThan(10);
  });
});

describe('a vsock socket (to the hypervisor, outside every network namespace)', () => {
  const OPEN_VSOCK = `python3 -c '
import errno, socket
try:
    socket.socket(socket.AF_VSOCK, socket.SOCK_STREAM).close(); print("opened")
except OSError as error:
    print(errno.errorcode[error.errno])'`;

  it('cannot be opened inside (EPERM), where the host (the control) is not refused by a filter', async () => {
    // Opened and closed only, never connected: the host's vsock peers are not this test's to reach.
    const host = spawnSync('/bin/sh', ['-c', OPEN_VSOCK], { encoding: 'utf8' });
    expect(host.stdout.trim(), host.stderr).toMatch(/^(opened|EAFNOSUPPORT|ENODEV|ENOENT)$/);
    for (const policy of [{}, { network: { mode: 'all' } }] as SandboxPolicyInput[]) {
      const inside = await bash(OPEN_VSOCK, policy);
      expect(inside.stdout.trim(), `${JSON.stringify(policy)}: ${inside.stderr}`).toBe('EPERM');
    }
  });
});

/**
 * Runs `command` as the MCP SDK does (not detached: in the spawner's own session) from a host process whose
 * controlling terminal is a fresh pty, which is also its stdin, stdout and stderr. Prints what it read from the pty.
 */
const IN_A_TERMINAL = `
import json, os, pty, sys
spec = json.loads(sys.argv[1])
pid, master = pty.fork()
if pid == 0:
    os.chdir(spec["cwd"])
    os.execve(spec["command"], [spec["command"]] + spec["args"], spec["env"])
output = b""
while True:
    try:
        chunk = os.read(master, 4096)
    except OSError:
        break
    if not chunk:
        break
    output += chunk
os.waitpid(pid, 0)
sys.stdout.write(output.decode("utf8", "replace"))`;

/** Pushes a character into the controlling terminal (/dev/tty) and into stdin, printing each outcome. */
const INJECT = `
import errno, fcntl, os, termios
outcome = []
try:
    fd = os.open("/dev/tty", os.O_RDWR)
    outcome.append("tty-opened")
    try:
        fcntl.ioctl(fd, termios.TIOCSTI, b"#"); outcome.append("tty-injected")
    except OSError as error:
        outcome.append("tty-" + errno.errorcode[error.errno])
except OSError as error:
    outcome.append("tty-" + errno.errorcode[error.errno])
try:
    fcntl.ioctl(0, termios.TIOCSTI, b"#"); outcome.append("stdin-injected")
except OSError as error:
    outcome.append("stdin-" + errno.errorcode[error.errno])
print("outcome", " ".join(outcome))`;

function inTerminal(spec: { command: string; args: string[]; cwd: string; env: Record<string, string> }): string {
  const run = spawnSync('python3', ['-c', IN_A_TERMINAL, JSON.stringify(spec)], { encoding: 'utf8', timeout: 120_000 });
  expect(run.status, run.stderr).toBe(0);
  return /outcome (.*)/.exec(run.stdout)?.[1]?.trim() ?? `no outcome in: ${run.stdout}`;
}

describe('the terminal the server was started from', () => {
  it('is reachable by a command started in its session on the host (the control)', () => {
    const env = { PATH: '/usr/bin:/bin' };
    const outcome = inTerminal({ command: '/usr/bin/python3', args: ['-c', INJECT], cwd: layout.workspace, env });
    expect(outcome).toMatch(/^tty-opened /);
  });

  it('takes no keystroke from a sandboxed command started in its session: no controlling terminal inside', async () => {
    const sandbox = await sandboxFor();
    const prepared = await sandbox.prepare({
      command: 'python3',
      args: ['-c', INJECT],
      cwd: layout.workspace,
      env: { PATH: '/usr/bin:/bin' },
    });
    try {
      const outcome = inTerminal(prepared);
      // EIO where the kernel refuses TIOCSTI to everyone (dev.tty.legacy_tiocsti = 0), EPERM where it checks.
      expect(outcome).toMatch(/^tty-ENXIO stdin-(EPERM|EIO)$/);
    } finally {
      await prepared.release();
    }
  });
});

describe("the sandbox's init (PID 1, bubblewrap's, whose memory a command may write)", () => {
  it('is as confined as the command: the same seccomp filter, no capability, no_new_privs', async () => {
    const result = await bash('grep -E "^(Seccomp|NoNewPrivs|CapEff|CapPrm):" /proc/1/status');
    expect(result.stdout.trim().split('\n').sort(), result.stderr).toEqual([
      'CapEff:\t0000000000000000',
      'CapPrm:\t0000000000000000',
      'NoNewPrivs:\t1',
      'Seccomp:\t2',
    ]);
  });
});

describe('the memory of a sandbox on a host without a memory cgroup (RLIMIT_DATA stands in, per process)', () => {
  it('cannot be outgrown through the tmpfs of /dev: /dev/shm holds no more than the limit, /dev nothing', async () => {
    const memoryBytes = 32 * 1024 * 1024;
    const support = await detectSandboxSupport();
    if (!support.available) throw new Error(support.reason);
    const sandbox = new BubblewrapSandbox({
      // A root server with no pids cgroup runs nothing under a process limit: this one is turned off.
      policy: sandboxPolicySchema.parse({ limits: { memoryBytes, processes: 'unlimited' } }),
      workspace: layout.workspace,
      bwrap: support.bwrap,
      sizesTmpfs: true,
      layout: readHostLayout(),
      // No cgroup at all, as on a host where none is writable.
      cgroups: {},
    });
    sandboxes.push(sandbox);
    // Three times the limit into each; `dd` itself stays far below RLIMIT_DATA. What each holds is then printed.
    const fill = (file: string) =>
      `dd if=/dev/zero of=${file} bs=1M count=96 2>/dev/null; echo ${file} $(stat -c %s ${file} 2>/dev/null || echo none)`;
    const result = await runSandboxed(sandbox, {
      command: '/bin/bash',
      args: ['-c', [fill('/dev/shm/fill'), fill('/dev/fill'), fill('/tmp/fill')].join('; ')],
      cwd: layout.workspace,
      env: { PATH: '/usr/bin:/bin' },
      wallTimeMs: 120_000,
    });
    const held = Object.fromEntries(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(' ')),
    );
    expect(Number(held['/dev/shm/fill']), result.stderr).toBeLessThanOrEqual(memoryBytes);
    expect(held['/dev/fill']).toBe('none');
    expect(Number(held['/tmp/fill'])).toBeLessThanOrEqual(memoryBytes);
  });
});
