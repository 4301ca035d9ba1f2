// The sandbox's own /proc against a command looking for the server's secrets, with real bubblewrap: a fresh procfs
// shows only the sandbox's processes, but a few of its files show the whole machine. /proc/keys lists every key the
// server's user can view, those of processes outside the sandbox included; the control is this machine's /proc,
// where the key a host process holds is listed.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import { runSandboxed } from '../src/sandbox/run-sandboxed.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import type { SandboxPolicyInput } from '../src/sandbox/sandbox-policy.js';
import { makeServerLayout, requireBubblewrap, type ServerLayout, waitFor } from './support/sandbox-fixture.js';

let layout: ServerLayout;
const sandboxes: Sandbox[] = [];

async function sh(policy: SandboxPolicyInput, script: string) {
  const sandbox = await createSandbox({ policy, workspace: layout.workspace });
  sandboxes.push(sandbox);
  return runSandboxed(sandbox, {
    command: '/bin/sh',
    args: ['-c', script],
    cwd: layout.workspace,
    env: { PATH: '/usr/bin:/bin' },
    wallTimeMs: 120_000,
  });
}

/**
 * A host process holding a key named `description` in its process keyring until its stdin closes (a stand-in for
 * a Kerberos ticket cache or a mount helper's credentials, held by the server's user outside the sandbox).
 */
function holdKey(description: string): {
  holder: ChildProcessByStdio<Writable, Readable, Readable>;
  ready: () => boolean;
} {
  const script = `require "syscall.ph"; my ($type, $name, $payload) = ("user", $ARGV[0], "secret-payload");
my $serial = syscall(&SYS_add_key, $type, $name, $payload, length $payload, -2);
$| = 1; print $serial == -1 ? "ERR $!\\n" : "held\\n"; <STDIN>;`;
  const holder = spawn('perl', ['-e', script, description], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  holder.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  return {
    holder,
    ready: () => {
      if (output.startsWith('ERR')) throw new Error(`add_key on the host failed: ${output}`);
      return output === 'held\n';
    },
  };
}

beforeAll(async () => {
  await requireBubblewrap();
  layout = makeServerLayout();
});

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.dispose()));
  rmSync(layout.root, { recursive: true, force: true });
});

describe("the kernel keyring's listing in /proc", () => {
  it('shows inside no key of the host, even under a policy that mounts /proc readable', async () => {
    const description = `x-host-key-${randomBytes(6).toString('hex')}`;
    const { holder, ready } = holdKey(description);
    try {
      await waitFor(ready, 'the host process to hold its key');
      // The control: the host's listing names it.
      expect(readFileSync('/proc/keys', 'utf8')).toContain(description);
      for (const policy of [{}, { readablePaths: ['/proc'] }] as SandboxPolicyInput[]) {
        const result = await sh(policy, 'cat /proc/keys /proc/key-users 2>/dev/null; echo "pid1 $(cat /proc/1/comm)"');
        expect(result.stdout, JSON.stringify(policy)).not.toContain(description);
        // The rest of /proc is the sandbox's own, and works.
        expect(result.stdout, JSON.stringify(policy)).toContain('pid1 bwrap');
      }
    } finally {
      holder.stdin.end();
    }
  });
});

describe("the kernel's machine-wide files in /proc", () => {
  it('read empty inside where this machine has them (the keyrings, the timers, the scheduler, the memory image)', async () => {
    const files = ['/proc/keys', '/proc/key-users', '/proc/timer_list', '/proc/timer_stats', '/proc/sched_debug'];
    files.push('/proc/latency_stats', '/proc/kcore');
    const present = files.filter((file) => existsSync(file));
    // This machine's kernel has /proc/timer_list at least (0400 root: a server running as root reads it inside,
    // where its owner is root too).
    expect(present).toContain('/proc/timer_list');
    const result = await sh(
      {},
      present.map((file) => `printf '%s=' ${file}; cat ${file} 2>/dev/null | wc -c`).join('; '),
    );
    expect(result.stdout.trim().split('\n')).toEqual(present.map((file) => `${file}=0`));
  });
});
