// A mount made below a path the sandbox mounts (a container's volume inside the workspace, a `mount --bind` by the
// operator): bubblewrap mounts it with that path, so it is in the sandbox, but the checks of the policy looked at the
// policy's own paths only. A bind of the temporary directory there showed every sandbox's proxy socket; a bind of the
// directory above it, writable, let a command rename the directory the host keeps them in; a bind of the conversation
// store let a command read or rewrite every conversation. Mounts need privileges, so the scenario runs in a user and
// mount namespace of its own (`unshare -Urm`, what bubblewrap needs anyway), by tsx from the sources; the sandbox it
// makes is the real one.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInMountNamespace } from './support/mount-namespace.js';
import { requireBubblewrap } from './support/sandbox-fixture.js';

const script = fileURLToPath(new URL('./support/mounts-below-policy.ts', import.meta.url));
let base: string;
/** The private root's name in the namespace, where the script runs as uid 0. */
const PRIVATE_ROOT = 'x-sandbox-private-0';

interface Outcome {
  ownName: string;
  writableHolder?: string;
  listedRoot: { exitCode: number | null; stdout: string; stderr: string };
  listedTmp: string[];
  listedLate: { exitCode: number | null; stdout: string; stderr: string };
  lateHolder?: string;
  storeBelowWorkspace?: string;
  storeBelowReadable?: string;
}
let outcome: Outcome;

beforeAll(async () => {
  await requireBubblewrap();
  base = realpathSync(mkdtempSync(join(tmpdir(), 'x-mounts-below-')));
  for (const directory of ['tmp', 'workspace/up', 'readable/t', 'workspace-2/data', 'store/conversation-1'])
    mkdirSync(join(base, directory), { recursive: true });
  outcome = runInMountNamespace<Outcome>({
    mounts:
      'mount --bind "$1" "$1/workspace/up" && mount --bind "$1/tmp" "$1/readable/t" && ' +
      'mount --bind "$1/store" "$1/workspace-2/data"',
    args: [base],
    script,
    tmp: join(base, 'tmp'),
  });
}, 150_000);

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

describe('a mount below a path the sandbox mounts', () => {
  it('showing the directory above the private root, writable, refuses the sandbox naming the mount', () => {
    expect(outcome.writableHolder).toBe(
      `InvalidSandboxPolicyError: The writable path ${base}/workspace/up (a mount below the policy's ${base}/workspace, ` +
        `which the sandbox mounts with it) holds ${base}/tmp, where the sandbox keeps its private files ` +
        `(${base}/tmp/${PRIVATE_ROOT}): a command could ` +
        'rename it and have the next sandbox use files of its own. Make a narrower path writable, or set TMPDIR to a ' +
        'directory outside it.',
    );
  });

  it('showing the temporary directory, readable, shows the private root there empty', () => {
    // The mount itself is in the sandbox (the root is there, as a mount point), but nothing of the host's in it.
    expect(outcome.listedTmp).toContain(PRIVATE_ROOT);
    expect(outcome.ownName).not.toBe('');
    expect(outcome.listedRoot).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('made after the sandbox, is seen at its next command', () => {
    expect(outcome.listedLate).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(outcome.lateHolder).toContain(
      `InvalidSandboxPolicyError: The writable path ${base}/late/up (a mount below the policy's ${base}/late, which the sandbox mounts with it) holds ${base}/tmp`,
    );
  });

  it('showing the conversation store is refused, below a workspace as below a readable path', () => {
    expect(outcome.storeBelowWorkspace).toContain(
      `InvalidSandboxPolicyError: The sandbox's mount ${base}/workspace-2/data (below its workspace ${base}/workspace-2) holds the conversation store ${base}/store`,
    );
    expect(outcome.storeBelowWorkspace).toContain('could rewrite');
    expect(outcome.storeBelowReadable).toContain(
      `The sandbox's mount ${base}/workspace-2/data (below its readable path ${base}/workspace-2) holds`,
    );
    expect(outcome.storeBelowReadable).toContain('could read');
  });
});
