// One sandbox against another's mounts, with real bubblewrap. A conversation's working directory may lie in another
// conversation's workspace (the server allows any directory under its workspace root), and a policy may name paths
// there to read or write. The other conversation can rename such a path and put a symlink in its place, to the
// server's data directory: each later command of the first would then have it mounted, writable where the path is.
// Each attack has its control: the symlink does lead to the data on the host.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
/** Directories of the other conversation's workspace that the victim's policy mounts. */
let shared: { workspace: string; readable: string; writable: string };
/** Where the victim's commands start: a writable path of its own, out of the other's reach. */
let ownDirectory: string;
const sandboxes: Sandbox[] = [];

async function sandboxFor(workspace: string, policy: SandboxPolicyInput): Promise<Sandbox> {
  const sandbox = await createSandbox({ policy, workspace });
  sandboxes.push(sandbox);
  return sandbox;
}

/** A sandbox of `policy` with another bubblewrap or launcher shell than createSandbox would choose. */
function bubblewrapWith(options: { policy: SandboxPolicyInput; bwrap: string; launcherShell?: string }): Sandbox {
  const sandbox = new BubblewrapSandbox({
    policy: sandboxPolicySchema.parse(options.policy),
    workspace: layout.workspace,
    bwrap: options.bwrap,
    sizesTmpfs: true,
    layout: readHostLayout(),
    cgroups: discoverCgroupHierarchies(),
    ...(options.launcherShell === undefined ? {} : { launcherShell: options.launcherShell }),
  });
  sandboxes.push(sandbox);
  return sandbox;
}

/**
 * Runs `script` as a server would that has no descriptor open past stdio (this test's runner may have inherited some,
 * which dash's launcher refuses first).
 */
async function withoutInheritedDescriptors(sandbox: Sandbox, script: string) {
  const prepared = await sandbox.prepare({ command: '/bin/sh', args: ['-c', script], cwd: layout.workspace, env: {} });
  try {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell's parameter expansion, not a template
    const closeAll = 'for f in /proc/self/fd/*; do f=${f##*/}; [ "$f" -gt 2 ] 2>/dev/null && eval "exec $f>&-"; done';
    return spawnSync(
      '/bin/bash',
      ['--norc', '--noprofile', '-c', `${closeAll}; exec "$@"`, 'server', prepared.command, ...prepared.args],
      {
        cwd: prepared.cwd,
        env: prepared.env,
        encoding: 'utf8',
      },
    );
  } finally {
    await prepared.release();
  }
}

function sh(sandbox: Sandbox, cwd: string, script: string) {
  return runSandboxed(sandbox, {
    command: '/bin/sh',
    args: ['-c', script],
    cwd,
    env: { PATH: '/usr/bin:/bin' },
    wallTimeMs: 120_000,
  });
}

beforeAll(async () => {
  await requireBubblewrap();
  layout = makeServerLayout();
  const other = layout.siblingWorkspace;
  shared = { workspace: join(other, 'ws'), readable: join(other, 'ro'), writable: join(other, 'rw') };
  ownDirectory = join(layout.root, 'own');
  for (const directory of [...Object.values(shared), ownDirectory]) mkdirSync(directory);
});

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.dispose()));
  rmSync(layout.root, { recursive: true, force: true });
});

describe('a path of the policy that another sandbox replaces with a symlink', () => {
  it('is not mounted: the command is refused, naming it, and sees nothing of where the symlink leads', async () => {
    const victim = await sandboxFor(shared.workspace, {
      readablePaths: [shared.readable],
      writablePaths: [shared.writable, ownDirectory],
    });
    const before = await sh(victim, ownDirectory, `ls "${shared.readable}" "${shared.workspace}" && echo mounted`);
    expect(before.stdout).toContain('mounted');

    // The other conversation's command, in its own sandbox: each shared path renamed, a symlink to the data in its place.
    const attacker = await sandboxFor(layout.siblingWorkspace, {});
    const swap = Object.values(shared)
      .map((path) => `mv "${path}" "${path}.moved" && ln -s "${layout.dataDir}" "${path}"`)
      .join(' && ');
    const swapped = await sh(attacker, layout.siblingWorkspace, `${swap} && echo swapped`);
    expect(swapped.stdout).toContain('swapped');
    // The control: through the symlink, the host reaches the server's data.
    expect(readFileSync(join(shared.readable, 'server-secrets.json'), 'utf8')).toContain(layout.fileSecret);

    const result = await sh(
      victim,
      ownDirectory,
      [
        `cat "${shared.readable}/server-secrets.json" "${shared.workspace}/server-secrets.json"`,
        `echo planted > "${shared.writable}/planted"`,
        'echo ran',
      ].join('; '),
    );
    expect(result.stdout).not.toContain(layout.fileSecret);
    expect(result.stdout).not.toContain('ran');
    expect(result.exitCode).toBe(125);
    expect(result.stderr).toMatch(/the mounted path .* is not where the sandbox found it/);
    expect(existsSync(join(layout.dataDir, 'planted'))).toBe(false);

    // Put back, the paths are mounted again: the refusal was for the symlink, not for the sandbox.
    for (const path of Object.values(shared)) {
      rmSync(path);
      renameSync(`${path}.moved`, path);
    }
    const after = await sh(victim, ownDirectory, `ls "${shared.readable}" "${shared.workspace}" && echo mounted`);
    expect(after.stdout).toContain('mounted');
    expect(existsSync(join(layout.dataDir, 'planted'))).toBe(false);
  });

  it('leaves no descriptor of a mount open inside (its `..` would reach the host outside the mount)', async () => {
    const sandbox = await sandboxFor(layout.workspace, { readablePaths: [shared.readable] });
    const result = await sh(sandbox, layout.workspace, 'ls -l /proc/self/fd/');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toContain(shared.readable);
    expect(result.stdout).not.toContain(layout.workspace);
  });
});

describe('a path swapped after the launcher checked it, before bubblewrap mounts it', () => {
  it('is mounted as it was checked: bubblewrap mounts the descriptor the launcher opened, not the name', async () => {
    const readable = join(layout.root, 'raced');
    mkdirSync(readable);
    writeFileSync(join(readable, 'own.txt'), 'the readable path itself');
    // The attacker winning the race, made certain: bubblewrap's own start swaps the path, as another sandbox could
    // between the launcher's check and bubblewrap's mount.
    const support = await detectSandboxSupport();
    if (!support.available) throw new Error(support.reason);
    const racingBwrap = join(layout.root, 'racing-bwrap');
    writeFileSync(
      racingBwrap,
      `#!/bin/sh\nmv '${readable}' '${readable}.moved' && ln -s '${layout.dataDir}' '${readable}' || exit 99\nexec '${support.bwrap}' "$@"\n`,
    );
    chmodSync(racingBwrap, 0o755);
    const sandbox = bubblewrapWith({ policy: { readablePaths: [readable] }, bwrap: racingBwrap });
    const result = await sh(sandbox, layout.workspace, `cat "${readable}"/*`);
    // The control: the swap happened, and the name now leads to the data.
    expect(readFileSync(join(readable, 'server-secrets.json'), 'utf8')).toContain(layout.fileSecret);
    expect(result.stdout).toContain('the readable path itself');
    expect(result.stdout).not.toContain(layout.fileSecret);
  });
});

describe('a policy with more paths than descriptors 4 to 9', () => {
  it('runs under bash, a file among them; under a shell that opens only 0 to 9 (dash) it starts nothing, saying why', async () => {
    const support = await detectSandboxSupport();
    if (!support.available) throw new Error(support.reason);
    const file = join(layout.root, 'one-file.txt');
    writeFileSync(file, 'a readable file');
    const directories = Array.from({ length: 7 }, (_, index) => join(layout.root, `many-${index}`));
    for (const directory of directories) mkdirSync(directory);
    const policy = { readablePaths: [...directories, file] };
    const script = `cat "${file}"; ls -d "${directories.at(-1)}"`;
    for (const shell of ['/bin/bash', '/bin/dash']) {
      const sandbox = bubblewrapWith({ policy, bwrap: support.bwrap, launcherShell: shell });
      const result = await withoutInheritedDescriptors(sandbox, script);
      if (shell === '/bin/bash') {
        expect(result.stdout).toContain('a readable file');
        expect(result.stdout).toContain(directories.at(-1));
      } else {
        expect(result.status).toBe(125);
        expect(result.stdout).toBe('');
        expect(result.stderr).toContain(
          'needs descriptor 10, which the launcher shell cannot open (it opens 0 to 9 only)',
        );
      }
    }
  });
});
