// What a bubblewrap sandbox prepares for a command, read off the launcher it returns (nothing is run but where
// said): the per-process limits on prlimit's line and which of them a cgroup takes over, the cgroups' own limits
// (written into a hierarchy of the test's own, a plain directory), /tmp's size, the seccomp filter, the directory
// check, the allowlist's private directory, a sandbox that was disposed, and the cgroups of a command that never
// started (real ones, where this host lets the server make them).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BubblewrapSandbox, type BubblewrapSandboxOptions } from './bubblewrap-sandbox.js';
import { detectSandboxSupport } from './detect-sandbox-support.js';
import { type CgroupHierarchies, discoverCgroupHierarchies } from './internal/cgroups.js';
import { type HostLayout, readHostLayout } from './internal/host-layout.js';
import { seccompFilterFile } from './internal/seccomp-filter.js';
import type { PreparedCommand } from './sandbox.js';
import { SandboxCommandError } from './sandbox-command-error.js';
import { type SandboxPolicyInput, sandboxPolicySchema } from './sandbox-policy.js';

let root: string;
let workspace: string;
let bwrap: string;
let layout: HostLayout;
const sandboxes: BubblewrapSandbox[] = [];

beforeAll(async () => {
  const support = await detectSandboxSupport();
  if (!support.available) throw new Error(support.reason);
  bwrap = support.bwrap;
  layout = readHostLayout();
  root = realpathSync(mkdtempSync(join(tmpdir(), 'x-bwrap-sandbox-mutants-')));
  workspace = join(root, 'workspace');
  mkdirSync(join(workspace, 'sub'), { recursive: true });
  mkdirSync(join(root, 'outside'));
});

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.dispose()));
  rmSync(root, { recursive: true, force: true });
});

function make(policy: SandboxPolicyInput, options: Partial<BubblewrapSandboxOptions> = {}): BubblewrapSandbox {
  const sandbox = new BubblewrapSandbox({
    policy: sandboxPolicySchema.parse(policy),
    workspace,
    bwrap,
    sizesTmpfs: true,
    layout,
    cgroups: {},
    // Without a cgroup, a root server refuses a process limit (tested in sandbox-limits-mutants.test.ts).
    runsAsRoot: false,
    ...options,
  });
  sandboxes.push(sandbox);
  return sandbox;
}

/** A cgroup hierarchy of the test's own: the sandbox writes its cgroups' limits there as into the kernel's. */
function fakeHierarchies(): CgroupHierarchies & { pidsV1: string; memoryV1: string } {
  const base = mkdtempSync(join(root, 'cgroups-'));
  const hierarchies = { pidsV1: join(base, 'pids'), memoryV1: join(base, 'memory') };
  mkdirSync(hierarchies.pidsV1);
  mkdirSync(hierarchies.memoryV1);
  return hierarchies;
}

async function prepare(sandbox: BubblewrapSandbox, cwd = workspace): Promise<PreparedCommand> {
  return sandbox.prepare({ command: 'cmd', args: ['arg'], cwd, env: { PATH: '/usr/bin:/bin' } });
}

/** This process's sandbox cgroups in the host's real hierarchies (none where it cannot make any). */
function ownCgroups(): string[] {
  const hierarchies = discoverCgroupHierarchies();
  return [hierarchies.pidsV1, hierarchies.memoryV1, hierarchies.v2?.dir].flatMap((parent) =>
    parent === undefined ? [] : readdirSync(parent).filter((name) => name.startsWith(`x-sandbox-${process.pid}-`)),
  );
}

/** bubblewrap's own arguments on the launcher's line, and what runs inside (after `--`). */
function split(prepared: PreparedCommand): { bwrapArgs: string[]; inside: string[] } {
  const bwrapArgs = prepared.args.slice(prepared.args.indexOf(bwrap) + 1);
  return { bwrapArgs, inside: bwrapArgs.slice(bwrapArgs.indexOf('--') + 1) };
}

describe('the per-process limits (prlimit, inside)', () => {
  it('are all there, CPU with a hard limit a second later, the data segment standing in for no memory cgroup', async () => {
    const limits = { cpuTimeSeconds: 5, memoryBytes: 100_000_000, fileSizeBytes: 1000, processes: 50 };
    const { inside } = split(await prepare(make({ limits })));
    expect(inside).toEqual([
      '/usr/bin/prlimit',
      '--cpu=5:6',
      '--data=100000000',
      '--fsize=1000',
      '--nproc=50',
      '--',
      'cmd',
      'arg',
    ]);
  });

  it('are the defaults when the policy has none, left out where each is unlimited, and one alone is still applied', async () => {
    const gib4 = String(4 * 1024 ** 3);
    const defaults = ['/usr/bin/prlimit', `--data=${gib4}`, `--fsize=${gib4}`, '--nproc=1024', '--', 'cmd', 'arg'];
    expect(split(await prepare(make({}))).inside).toEqual(defaults);
    expect(split(await prepare(make({ limits: {} }))).inside).toEqual(defaults);
    const off = { memoryBytes: 'unlimited', fileSizeBytes: 'unlimited', processes: 'unlimited' } as const;
    expect(split(await prepare(make({ limits: off }))).inside).toEqual(['cmd', 'arg']);
    expect(split(await prepare(make({ limits: { ...off, fileSizeBytes: 1000 } }))).inside).toEqual([
      '/usr/bin/prlimit',
      '--fsize=1000',
      '--',
      'cmd',
      'arg',
    ]);
  });

  it('leave the memory to a memory cgroup where there is one, which holds the limit, as a pids cgroup holds its own', async () => {
    const hierarchies = fakeHierarchies();
    const sandbox = make({ limits: { memoryBytes: 100_000_000, processes: 50 } }, { cgroups: hierarchies });
    const prepared = await prepare(sandbox);
    expect(split(prepared).inside).toEqual([
      '/usr/bin/prlimit',
      `--fsize=${4 * 1024 ** 3}`,
      '--nproc=50',
      '--',
      'cmd',
      'arg',
    ]);
    const [memory] = readdirSync(hierarchies.memoryV1);
    const [pids] = readdirSync(hierarchies.pidsV1);
    expect(memory).toMatch(new RegExp(`^x-sandbox-${process.pid}-[0-9a-f]{12}$`));
    expect(readFileSync(join(hierarchies.memoryV1, memory as string, 'memory.limit_in_bytes'), 'utf8')).toBe(
      '100000000',
    );
    // The command's own processes, and bubblewrap's two (its monitor outside and the namespace's init).
    expect(readFileSync(join(hierarchies.pidsV1, pids as string, 'pids.max'), 'utf8')).toBe('52');
    // The launcher joins both before it becomes bubblewrap, and must (exit 125 otherwise).
    const script = prepared.args[prepared.args.indexOf('-c') + 1] as string;
    expect(script).toContain(
      `{ echo $$ > '${join(hierarchies.pidsV1, pids as string, 'cgroup.procs')}' || exit 125; }`,
    );
  });
});

describe('the rest of the command line', () => {
  it('sizes /tmp to the memory limit only where bubblewrap can and there is a limit', async () => {
    const limits = { memoryBytes: 64_000_000 };
    const size = (args: string[]) => args[args.indexOf('--size') + 1];
    expect(size(split(await prepare(make({ limits }))).bwrapArgs)).toBe('64000000');
    expect(split(await prepare(make({ limits }, { sizesTmpfs: false }))).bwrapArgs).not.toContain('--size');
    expect(size(split(await prepare(make({}))).bwrapArgs)).toBe(String(4 * 1024 ** 3));
    expect(split(await prepare(make({ limits: { memoryBytes: 'unlimited' } }))).bwrapArgs).not.toContain('--size');
  });

  it('applies the seccomp filter the launcher opens, and uses the launcher shell it is given', async () => {
    const prepared = await prepare(make({}, { launcherShell: '/bin/sh' }));
    const { bwrapArgs } = split(prepared);
    expect(bwrapArgs.slice(bwrapArgs.indexOf('--seccomp'), bwrapArgs.indexOf('--seccomp') + 2)).toEqual([
      '--seccomp',
      '3',
    ]);
    expect(prepared.args.join(' ')).toContain(`exec 3<'${seccompFilterFile()}'`);
    expect(prepared.command).toBe('/bin/sh');
    expect(prepared.env).toEqual({ PATH: '/usr/bin:/bin', PWD: workspace });
  });

  it('starts in a directory inside a mounted path, by its real path, and refuses one outside', async () => {
    const sandbox = make({ readablePaths: [join(root, 'outside')] });
    expect((await prepare(sandbox, join(workspace, 'sub', '..', 'sub'))).cwd).toBe(join(workspace, 'sub'));
    expect((await prepare(sandbox, join(root, 'outside'))).cwd).toBe(join(root, 'outside'));
    await expect(prepare(make({}), join(root, 'outside'))).rejects.toThrow(SandboxCommandError);
    await expect(prepare(make({}), root)).rejects.toThrow(/is outside the sandbox/);
    await expect(prepare(make({}), join(root, 'missing'))).rejects.toThrow(/does not exist on the host/);
  });
});

describe('an allowlist', () => {
  it('gets a private directory with the bridge, run first inside, counted in the pids cgroup, removed at dispose', async () => {
    const hierarchies = fakeHierarchies();
    const sandbox = make(
      { network: { mode: 'allowlist', hosts: ['example.com'] }, limits: { processes: 50 } },
      { cgroups: hierarchies },
    );
    const { bwrapArgs, inside } = split(await prepare(sandbox));
    const control = bwrapArgs[bwrapArgs.indexOf('/run/x-sandbox') - 1] as string;
    expect(bwrapArgs[bwrapArgs.indexOf('/run/x-sandbox') - 2]).toBe('--ro-bind');
    expect(statSync(join(control, 'bridge.cjs')).mode & 0o777).toBe(0o444);
    expect(existsSync(join(control, 'proxy.sock'))).toBe(true);
    expect(inside.slice(0, 3)).toEqual([layout.node, '/run/x-sandbox/bridge.cjs', '/run/x-sandbox/proxy.sock']);
    const [pids] = readdirSync(hierarchies.pidsV1);
    // The bridge's node and its threads count too.
    expect(readFileSync(join(hierarchies.pidsV1, pids as string, 'pids.max'), 'utf8')).toBe('68');
    await sandbox.dispose();
    expect(existsSync(control)).toBe(false);
  });

  it('is not set up for another network', async () => {
    const { bwrapArgs } = split(await prepare(make({ network: { mode: 'all' } })));
    expect(bwrapArgs).not.toContain('/run/x-sandbox');
  });
});

describe('a disposed sandbox', () => {
  it('prepares nothing more', async () => {
    const sandbox = make({});
    await prepare(sandbox);
    await sandbox.dispose();
    await expect(prepare(sandbox)).rejects.toThrow('The sandbox was disposed; it runs nothing more');
  });

  it('starts no command it was still setting up, and leaves none of its cgroups behind', async () => {
    const sandbox = make(
      { limits: { processes: 8, memoryBytes: 200_000_000 } },
      { cgroups: discoverCgroupHierarchies() },
    );
    const before = ownCgroups().length;
    const preparing = prepare(sandbox);
    await sandbox.dispose();
    await expect(preparing).rejects.toThrow('The sandbox was disposed; it runs nothing more');
    expect(ownCgroups().length).toBe(before);
  });
});

describe('dispose', () => {
  it('kills a running command by its process group where no cgroup holds it', async () => {
    const sandbox = make({}, { cgroups: {} });
    const child = await sandbox.spawn({
      command: '/bin/sleep',
      args: ['1000'],
      cwd: workspace,
      env: {},
      stdio: 'ignore',
    });
    const ended = new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    await sandbox.dispose();
    expect(await ended).toBe('SIGKILL');
  });

  it('releases the cgroups of a command prepared and never released', async () => {
    const sandbox = make(
      { limits: { processes: 8, memoryBytes: 200_000_000 } },
      { cgroups: discoverCgroupHierarchies() },
    );
    const before = ownCgroups().length;
    await prepare(sandbox);
    await sandbox.dispose();
    expect(ownCgroups().length).toBe(before);
  });
});

describe('the warning of a process limit no cgroup enforces', () => {
  it('is emitted once per process by a server that is not root, only for a policy with a process limit', async () => {
    vi.resetModules();
    const emitWarning = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const fresh = await import('./bubblewrap-sandbox.js');
      const build = (policy: SandboxPolicyInput) =>
        new fresh.BubblewrapSandbox({
          policy: sandboxPolicySchema.parse(policy),
          workspace,
          bwrap,
          sizesTmpfs: true,
          layout,
          cgroups: {},
          runsAsRoot: false,
        });
      await prepare(build({ limits: { processes: 'unlimited' } }));
      expect(emitWarning).not.toHaveBeenCalledWith(expect.anything(), { code: 'X_SANDBOX_NO_PROCESS_LIMIT' });
      await prepare(build({}));
      await prepare(build({ limits: { processes: 10 } }));
      const noLimit = emitWarning.mock.calls.filter(([, options]) => {
        return (options as { code?: string } | undefined)?.code === 'X_SANDBOX_NO_PROCESS_LIMIT';
      });
      expect(noLimit).toEqual([
        [expect.stringContaining('not enforced by a cgroup'), { code: 'X_SANDBOX_NO_PROCESS_LIMIT' }],
      ]);
    } finally {
      emitWarning.mockRestore();
      vi.resetModules();
    }
  });
});

describe('a command that cannot start', () => {
  it('releases its cgroups at once, not at dispose (a long-lived sandbox would gather them)', async () => {
    const hierarchies = discoverCgroupHierarchies();
    const sandbox = make(
      { limits: { processes: 16, memoryBytes: 200_000_000 } },
      { cgroups: hierarchies, launcherShell: join(root, 'no-such-shell') },
    );
    const before = ownCgroups().length;
    const child = await sandbox.spawn({ command: 'cmd', args: [], cwd: workspace, env: {}, stdio: 'ignore' });
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => child.once('error', resolve));
    expect(error.code).toBe('ENOENT');
    // Where this host lets the server make cgroups, the failed command made some: each must go without a dispose.
    await vi.waitFor(() => expect(ownCgroups().length).toBe(before), { timeout: 30_000, interval: 20 });
  });
});
