// The default limits and their opt-out, with real commands in the real sandbox: a fork bomb stopped by the default
// process limit and reported as `processes`; a memory hog stopped by the per-process fallback (RLIMIT_DATA) where no
// memory cgroup is had, while `node` still runs under the default there (RLIMIT_AS would refuse runtimes that reserve
// address space); and `'unlimited'` lifting each limit for real.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapSandbox } from '../src/sandbox/bubblewrap-sandbox.js';
import { createSandbox } from '../src/sandbox/create-sandbox.js';
import { detectSandboxSupport } from '../src/sandbox/detect-sandbox-support.js';
import { discoverCgroupHierarchies } from '../src/sandbox/internal/cgroups.js';
import { readHostLayout } from '../src/sandbox/internal/host-layout.js';
import { runSandboxed } from '../src/sandbox/run-sandboxed.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import { type SandboxPolicyInput, sandboxPolicySchema } from '../src/sandbox/sandbox-policy.js';
import { makeServerLayout, requireBubblewrap, type ServerLayout } from './support/sandbox-fixture.js';

let layout: ServerLayout;
const sandboxes: Sandbox[] = [];

beforeAll(async () => {
  await requireBubblewrap();
  layout = makeServerLayout();
});

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.dispose()));
  rmSync(layout.root, { recursive: true, force: true });
});

async function sandboxed(policy: SandboxPolicyInput): Promise<Sandbox> {
  const sandbox = await createSandbox({ policy, workspace: layout.workspace });
  sandboxes.push(sandbox);
  return sandbox;
}

/** A sandbox on this host's pids cgroup alone: no memory cgroup, so the memory limit falls back to RLIMIT_DATA. */
async function withoutMemoryCgroup(policy: SandboxPolicyInput): Promise<Sandbox> {
  const support = await detectSandboxSupport();
  if (!support.available) throw new Error(support.reason);
  const { pidsV1, v2 } = discoverCgroupHierarchies();
  const sandbox = new BubblewrapSandbox({
    policy: sandboxPolicySchema.parse(policy),
    workspace: layout.workspace,
    bwrap: support.bwrap,
    sizesTmpfs: false,
    layout: readHostLayout(),
    cgroups: {
      ...(pidsV1 === undefined ? {} : { pidsV1 }),
      ...(v2 === undefined
        ? {}
        : { v2: { dir: v2.dir, controllers: new Set([...v2.controllers].filter((name) => name !== 'memory')) } }),
    },
  });
  sandboxes.push(sandbox);
  return sandbox;
}

const bash = (script: string, wallTimeMs = 60_000) => ({
  command: '/bin/bash',
  args: ['--norc', '-c', script],
  cwd: layout.workspace,
  env: { PATH: '/usr/bin:/bin', HOME: layout.workspace },
  wallTimeMs,
});

/** `Max <name>` of /proc/self/limits, soft limit, as a command in `sandbox` sees it. */
async function ownLimit(sandbox: Sandbox, name: string): Promise<string | undefined> {
  const result = await runSandboxed(sandbox, bash('cat /proc/self/limits'));
  const line = result.stdout.split('\n').find((entry) => entry.startsWith(`Max ${name} `));
  return line?.slice(`Max ${name} `.length).trim().split(/\s+/)[0];
}

describe('the default limits', () => {
  it('stop a fork bomb at the process limit, reported as `processes`', async () => {
    const sandbox = await sandboxed({});
    // The shell stays (sleep) so the sandbox lives on while the bomb grows; the wall time ends it.
    const result = await runSandboxed(sandbox, bash(':(){ :|:& };:; sleep 60', 4000));
    expect(result.limit).toBe('processes');
  });

  it('hold every command to 4 GiB of data segment and file, and 1,024 processes', async () => {
    const sandbox = await withoutMemoryCgroup({});
    expect(await ownLimit(sandbox, 'data size')).toBe(String(4 * 1024 ** 3));
    expect(await ownLimit(sandbox, 'address space')).toBe('unlimited');
    expect(await ownLimit(sandbox, 'file size')).toBe(String(4 * 1024 ** 3));
    expect(await ownLimit(sandbox, 'processes')).toBe('1024');
  });

  it('let node run where RLIMIT_DATA stands in for a memory cgroup, and stop a memory hog there', async () => {
    const sandbox = await withoutMemoryCgroup({});
    const node = await runSandboxed(sandbox, bash('node -e "console.log(Buffer.alloc(64 << 20, 1).length)"'));
    expect(node.stderr).toBe('');
    expect(node.stdout).toBe(`${64 << 20}\n`);
    const small = await withoutMemoryCgroup({ limits: { memoryBytes: 256 * 1024 ** 2 } });
    // 1 GiB at most, so that a sandbox that failed to stop it cannot take the host's memory.
    const script = "a = []\nfor _ in range(1024): a.append(b'x' * (1 << 20))\nprint('survived')";
    const hog = await runSandboxed(small, bash(`python3 -c "${script}"`));
    expect(hog.stdout).toBe('');
    expect(hog.exitCode).toBe(1);
    expect(hog.stderr).toContain('MemoryError');
  });
});

describe("a limit turned off ('unlimited')", () => {
  it('lets a command start more processes than the default allows', async () => {
    const sandbox = await sandboxed({ limits: { processes: 'unlimited' } });
    const result = await runSandboxed(sandbox, bash('for i in $(seq 1100); do sleep 60 & done; echo started $i'));
    expect(result.stdout).toBe('started 1100\n');
    expect(result.limit).toBeUndefined();
  });

  it('lets a command write a file past the default file size', async () => {
    const capped = await runSandboxed(await sandboxed({}), bash('truncate -s 5G capped'));
    expect(capped.limit).toBe('file_size');
    const sandbox = await sandboxed({ limits: { fileSizeBytes: 'unlimited' } });
    // Sparse: no disk is used.
    const result = await runSandboxed(sandbox, bash('truncate -s 5G lifted && stat -c %s lifted && rm lifted capped'));
    expect(result.stdout).toBe(`${5 * 1024 ** 3}\n`);
  });

  it('leaves the data segment unbounded where no memory cgroup holds the sandbox', async () => {
    const sandbox = await withoutMemoryCgroup({ limits: { memoryBytes: 'unlimited' } });
    expect(await ownLimit(sandbox, 'data size')).toBe('unlimited');
  });
});
