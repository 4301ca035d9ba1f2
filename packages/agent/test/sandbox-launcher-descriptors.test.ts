// The launcher's shell against descriptors the server inherited without close-on-exec, with real bubblewrap: bash
// closes every one; a shell that closes only 0 to 9 in a redirection (dash, Debian's /bin/sh: the launcher where
// there is no bash) starts nothing when one past 9 is open, and closes the rest. Each case has its control: the same
// command, unsandboxed, reads the server's file through the descriptors.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapSandbox } from '../src/sandbox/bubblewrap-sandbox.js';
import { detectSandboxSupport } from '../src/sandbox/detect-sandbox-support.js';
import { discoverCgroupHierarchies } from '../src/sandbox/internal/cgroups.js';
import { readHostLayout } from '../src/sandbox/internal/host-layout.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import { sandboxPolicySchema } from '../src/sandbox/sandbox-policy.js';
import { makeServerLayout, requireBubblewrap, type ServerLayout } from './support/sandbox-fixture.js';

let layout: ServerLayout;
let secretFile: string;
const sandboxes: Sandbox[] = [];

async function sandboxWith(launcherShell: string): Promise<Sandbox> {
  const support = await detectSandboxSupport();
  if (!support.available) throw new Error(support.reason);
  const sandbox = new BubblewrapSandbox({
    policy: sandboxPolicySchema.parse({}),
    workspace: layout.workspace,
    bwrap: support.bwrap,
    sizesTmpfs: true,
    layout: readHostLayout(),
    cgroups: discoverCgroupHierarchies(),
    launcherShell,
  });
  sandboxes.push(sandbox);
  return sandbox;
}

/** Lists its descriptors, reads the secret through any it may have, and leaves a mark that it ran. */
const SCRIPT = 'ls /proc/self/fd; for fd in 5 9 12 200; do cat /proc/self/fd/$fd 2>/dev/null; done; echo > ran';

/**
 * Runs `command` as a server would that inherited `fds` open on the secret file, not close-on-exec (a supervisor's,
 * a socket activation's, a wrapper script's `12<`). The stand-in (bash) first closes what this test's own runner
 * inherited, so that the descriptors are exactly these.
 */
function asServerWith(fds: readonly number[], command: { command: string; args: string[]; cwd: string; env: object }) {
  const setup = [
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell's parameter expansion, not a template
    'for f in /proc/self/fd/*; do f=${f##*/}; [ "$f" -gt 2 ] 2>/dev/null && eval "exec $f>&-"; done',
    ...fds.map((fd) => `exec ${fd}<'${secretFile}'`),
    'exec "$@"',
  ].join('; ');
  return spawnSync('/bin/bash', ['--norc', '--noprofile', '-c', setup, 'server', command.command, ...command.args], {
    cwd: command.cwd,
    env: command.env as NodeJS.ProcessEnv,
    encoding: 'utf8',
  });
}

async function runInside(shell: string, fds: readonly number[]) {
  const prepared = await (await sandboxWith(shell)).prepare({
    command: '/bin/sh',
    args: ['-c', SCRIPT],
    cwd: layout.workspace,
    env: { PATH: '/usr/bin:/bin' },
  });
  try {
    return asServerWith(fds, prepared);
  } finally {
    await prepared.release();
  }
}

function control(fds: readonly number[]): string {
  const result = asServerWith(fds, { command: '/bin/sh', args: ['-c', SCRIPT], cwd: layout.workspace, env: {} });
  rmSync(join(layout.workspace, 'ran'), { force: true });
  return result.stdout;
}

beforeAll(async () => {
  await requireBubblewrap();
  layout = makeServerLayout();
  secretFile = join(layout.dataDir, 'server-secrets.json');
});

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.dispose()));
  rmSync(layout.root, { recursive: true, force: true });
});

describe('a launcher shell that closes only descriptors 0 to 9 (dash)', () => {
  it('starts nothing when the server holds one past 9, and says which', async () => {
    const fds = [5, 9, 12];
    expect(control(fds)).toContain(layout.fileSecret);
    const result = await runInside('/bin/dash', fds);
    expect(result.status).toBe(125);
    expect(result.stderr).toContain('cannot close the inherited descriptor 12');
    expect(result.stdout).not.toContain(layout.fileSecret);
    expect(existsSync(join(layout.workspace, 'ran'))).toBe(false);
  });

  it('closes those from 3 to 9 and runs the command', async () => {
    // All of them: the directory the shell lists its descriptors through is then 10, closed by the time it is
    // looked at, and not taken for an inherited one.
    const fds = [3, 4, 5, 6, 7, 8, 9];
    expect(control(fds)).toContain(layout.fileSecret);
    const result = await runInside('/bin/dash', fds);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).not.toContain(layout.fileSecret);
    // Only stdio, and the directory `ls` reads.
    expect(result.stdout.trim().split('\n').sort()).toEqual(['0', '1', '2', '3']);
    expect(existsSync(join(layout.workspace, 'ran'))).toBe(true);
    rmSync(join(layout.workspace, 'ran'));
  });
});

describe('bash, the launcher wherever it is installed', () => {
  it('closes every descriptor, past 9 too, and runs the command', async () => {
    const fds = [5, 12, 200];
    expect(control(fds)).toContain(layout.fileSecret);
    const result = await runInside('/bin/bash', fds);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).not.toContain(layout.fileSecret);
    expect(result.stdout.trim().split('\n').sort()).toEqual(['0', '1', '2', '3']);
    expect(existsSync(join(layout.workspace, 'ran'))).toBe(true);
    rmSync(join(layout.workspace, 'ran'));
  });
});
