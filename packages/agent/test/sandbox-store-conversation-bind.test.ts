// One conversation's directory of the store bind-mounted below a path the sandbox mounts (a container's volume, a
// `mount --bind` by the operator): bubblewrap mounts it with that path, so a command could read (or, writable,
// rewrite) that conversation's events. The store's guard compared paths and the identities of their ancestors, which
// catch a bind of the store itself or of a directory above it, but not of one inside it: the mount's source is. Mounts
// need privileges, so the scenario runs in a user and mount namespace of its own (`unshare -Urm`), by tsx from the
// sources; the sandbox it opens is the real one.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInMountNamespace } from './support/mount-namespace.js';
import { requireBubblewrap } from './support/sandbox-fixture.js';

const script = fileURLToPath(new URL('./support/conversation-bind-below-policy.ts', import.meta.url));
let base: string;

interface Outcome {
  shownUnguarded: string;
  belowReadable: string;
  readableAtMount: string;
  belowWorkspace: string;
  besideConversations: string;
}
let outcome: Outcome;

beforeAll(async () => {
  await requireBubblewrap();
  base = realpathSync(mkdtempSync(join(tmpdir(), 'x-conversation-bind-')));
  const directories = ['tmp', 'quiet', 'readable/peek', 'readable/fork', 'workspace/mine', 'store/fork-workspace'];
  for (const directory of [...directories, 'store/conversation-1/events', 'store/conversation-2/events'])
    mkdirSync(join(base, directory), { recursive: true });
  writeFileSync(join(base, 'store', 'conversation-2', 'base_state.json'), '{}');
  writeFileSync(join(base, 'store', 'conversation-2', 'events', 'event-00001.json'), '{}');
  writeFileSync(join(base, 'store', 'fork-workspace', 'notes.txt'), 'not a conversation');
  outcome = runInMountNamespace<Outcome>({
    mounts:
      'mount --bind "$1/store/conversation-2" "$1/readable/peek" && ' +
      'mount --bind "$1/store/conversation-1" "$1/workspace/mine" && ' +
      'mount --bind "$1/store/fork-workspace" "$1/readable/fork"',
    args: [base],
    script,
    tmp: join(base, 'tmp'),
  });
}, 150_000);

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

describe("a bind mount of one conversation's directory", () => {
  it("shows that conversation's events in a sandbox opened without the guard (what the guard is for)", () => {
    expect(outcome.shownUnguarded).toBe('event-00001.json');
  });

  it('below a readable path, refuses the sandbox naming the mount', () => {
    expect(outcome.belowReadable).toBe(
      `InvalidSandboxPolicyError: The sandbox's mount ${base}/readable/peek (below its readable path ${base}/readable) ` +
        `lies inside a conversation of the conversation store ${base}/store: a sandboxed command could read the ` +
        "conversations' events and the secrets in them. Work in a directory that does not hold the store, or keep the " +
        'store elsewhere (persistenceDir, X_HOME).',
    );
  });

  it('refuses a readable path inside the mount, and this conversation bound below the workspace', () => {
    expect(outcome.readableAtMount).toContain(
      `The sandbox's readable path ${base}/readable/peek/events lies inside a conversation of`,
    );
    expect(outcome.belowWorkspace).toContain(
      `The sandbox's mount ${base}/workspace/mine (below its workspace ${base}/workspace) lies inside a conversation`,
    );
    expect(outcome.belowWorkspace).toContain('could rewrite');
  });

  it('leaves alone a bind of a directory of the store that is no conversation', () => {
    expect(outcome.besideConversations).toBe('listed: notes.txt');
  });
});
