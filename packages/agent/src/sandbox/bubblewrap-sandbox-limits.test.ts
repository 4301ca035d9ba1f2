// A root server's process limit (the kernel exempts root from RLIMIT_NPROC): refused, naming what is missing and the
// opt-out, where no pids cgroup can be made (nothing started, no cgroup left behind), and run where one can be or the
// limit is turned off explicitly, which the sandbox warns of. Commands are prepared, not run (the real ones are in
// test/sandbox-limits.test.ts).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BubblewrapSandbox } from './bubblewrap-sandbox.js';
import { detectSandboxSupport } from './detect-sandbox-support.js';
import { type CgroupHierarchies, discoverCgroupHierarchies } from './internal/cgroups.js';
import { type HostLayout, readHostLayout } from './internal/host-layout.js';
import { SandboxLimitUnavailableError } from './sandbox-limit-unavailable-error.js';
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
  root = realpathSync(mkdtempSync(join(tmpdir(), 'x-bwrap-sandbox-limits-')));
  workspace = join(root, 'workspace');
  mkdirSync(workspace);
});

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.dispose()));
  rmSync(root, { recursive: true, force: true });
});

function rootSandbox(policy: SandboxPolicyInput, cgroups: CgroupHierarchies): BubblewrapSandbox {
  const sandbox = new BubblewrapSandbox({
    policy: sandboxPolicySchema.parse(policy),
    workspace,
    bwrap,
    sizesTmpfs: true,
    layout,
    cgroups,
    runsAsRoot: true,
  });
  sandboxes.push(sandbox);
  return sandbox;
}

/** A hierarchy of the test's own (a plain directory): the sandbox makes its cgroups there as in the kernel's. */
function hierarchy(name: string): string {
  return mkdtempSync(join(root, `${name}-`));
}

/** This process's sandbox cgroups under `parent`. */
function own(parent: string | undefined): string[] {
  return parent === undefined ? [] : readdirSync(parent).filter((name) => name.startsWith(`x-sandbox-${process.pid}-`));
}

const prepare = (sandbox: BubblewrapSandbox) =>
  sandbox.prepare({ command: 'cmd', args: [], cwd: workspace, env: { PATH: '/usr/bin:/bin' } });

describe('a root server without a pids cgroup', () => {
  it('refuses a command under the default process limit, naming what is missing and the opt-out', async () => {
    // The host's own memory hierarchy (where it lets the server make cgroups), whose cgroups rmdir can remove.
    const { memoryV1 } = discoverCgroupHierarchies();
    const before = own(memoryV1);
    const refusal = await prepare(rootSandbox({}, { memoryV1 })).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(SandboxLimitUnavailableError);
    expect(refusal).toMatchObject({ code: 'sandbox_limit_unavailable', limit: 'processes' });
    const message = (refusal as Error).message;
    expect(message).toContain('the server runs as root, which the kernel exempts from RLIMIT_NPROC');
    expect(message).toContain('no pids cgroup could be created');
    expect(message).toContain("`limits: { processes: 'unlimited' }`");
    expect(message).toContain('`--sandbox-limit processes=unlimited`');
    // The memory cgroup it had made for the command is gone with it.
    expect(own(memoryV1)).toEqual(before);
    await expect(prepare(rootSandbox({ limits: { processes: 64 } }, {}))).rejects.toThrow(SandboxLimitUnavailableError);
  });

  it('runs a command whose policy turns the process limit off explicitly', async () => {
    const prepared = await prepare(rootSandbox({ limits: { processes: 'unlimited' } }, {}));
    expect(prepared.args).not.toContain('--nproc=1024');
    await prepared.release();
  });

  it('runs a command where a pids cgroup holds the limit', async () => {
    const pidsV1 = hierarchy('pids');
    const prepared = await prepare(rootSandbox({}, { pidsV1 }));
    const [cgroup] = readdirSync(pidsV1);
    expect(readFileSync(join(pidsV1, cgroup as string, 'pids.max'), 'utf8')).toBe('1026');
    await prepared.release();
  });
});

describe('a sandbox whose policy turns a limit off', () => {
  it('warns of it (X_SANDBOX_LIMIT_OFF) when it is made, before any command', async () => {
    vi.resetModules();
    const emitWarning = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const fresh = await import('./bubblewrap-sandbox.js');
      new fresh.BubblewrapSandbox({
        policy: sandboxPolicySchema.parse({ limits: { fileSizeBytes: 'unlimited' } }),
        workspace,
        bwrap,
        sizesTmpfs: true,
        layout,
        cgroups: {},
      });
      expect(emitWarning).toHaveBeenCalledWith(expect.stringContaining("The sandbox's fileSizeBytes limit is OFF"), {
        code: 'X_SANDBOX_LIMIT_OFF',
      });
    } finally {
      emitWarning.mockRestore();
      vi.resetModules();
    }
  });
});
