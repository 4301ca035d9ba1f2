// The host's `node` runs the allowlist's bridge inside the sandbox, so a `node` outside the system directories is
// mounted into every sandbox. A standalone binary can sit anywhere: in the home directory (`~/node`), in the server's
// own directory, beside its data. What is mounted for it must be the binary, never the directory it lies in: the
// directory's other files (the home directory's credentials, the conversation store) are exactly what the sandbox
// keeps out.
import { copyFileSync, linkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapSandbox } from '../src/sandbox/bubblewrap-sandbox.js';
import { detectSandboxSupport } from '../src/sandbox/detect-sandbox-support.js';
import { discoverCgroupHierarchies } from '../src/sandbox/internal/cgroups.js';
import { readHostLayout } from '../src/sandbox/internal/host-layout.js';
import { runSandboxed } from '../src/sandbox/run-sandboxed.js';
import { type SandboxPolicyInput, sandboxPolicySchema } from '../src/sandbox/sandbox-policy.js';
import { makeServerLayout, requireBubblewrap, type ServerLayout } from './support/sandbox-fixture.js';

let layout: ServerLayout;
let node: string;
const sandboxes: BubblewrapSandbox[] = [];

/** A sandbox as `createSandbox` makes it, on a host whose `node` is `node` (in the home directory). */
async function bash(script: string, policy: SandboxPolicyInput = {}) {
  const support = await detectSandboxSupport();
  if (!support.available) throw new Error(support.reason);
  const sandbox = new BubblewrapSandbox({
    policy: sandboxPolicySchema.parse(policy),
    workspace: layout.workspace,
    bwrap: support.bwrap,
    sizesTmpfs: true,
    layout: readHostLayout({ execPath: node }),
    // The host's own, as `createSandbox` finds them (a root server runs nothing under a process limit without).
    cgroups: discoverCgroupHierarchies(),
  });
  sandboxes.push(sandbox);
  return runSandboxed(sandbox, {
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
  node = join(layout.home, 'node');
  try {
    // A second name for this process's own binary: no copy of a hundred megabytes where one file system holds both.
    linkSync(process.execPath, node);
  } catch {
    copyFileSync(process.execPath, node);
  }
});

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.dispose()));
  rmSync(layout.root, { recursive: true, force: true });
});

describe('a node binary outside the system directories, in the home directory', () => {
  it('is mounted alone: the files beside it (the credentials of the home directory) are not in the sandbox', async () => {
    const result = await bash(`ls -A ${layout.home}; cat ${layout.home}/.credentials`);
    expect(result.stdout + result.stderr).not.toContain(layout.fileSecret);
    expect(result.stdout.trim().split('\n')).toEqual(['node']);
  });

  it('still runs inside, and runs the allowlist bridge, from that one file', async () => {
    const result = await bash(`${node} -e 'console.log(process.version)'; echo "proxy=$HTTP_PROXY"`, {
      network: { mode: 'allowlist', hosts: ['example.com'] },
    });
    expect(result.stdout, result.stderr).toContain(process.version);
    expect(result.stdout).toMatch(/proxy=http:\/\/127\.0\.0\.1:\d+/);
    expect(result.exitCode).toBe(0);
  });
});
