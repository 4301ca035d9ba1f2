// The sandboxes' private root seen through a second path to the same directory: a bind mount of the temporary
// directory (as a container's volume, or `mount --bind /tmp /mnt/tmp`, makes one). Hiding it by its path alone
// missed it there, and a policy mounting the second path showed every sandbox's proxy socket. A bind mount needs
// privileges, so the scenario runs in a user and mount namespace of its own (`unshare -Urm`, what bubblewrap needs
// anyway), by tsx from the sources; the sandbox it makes is the real one.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInMountNamespace } from './support/mount-namespace.js';
import { requireBubblewrap } from './support/sandbox-fixture.js';

const script = fileURLToPath(new URL('./support/private-root-through-bind-mount.ts', import.meta.url));
let base: string;
let base2: string;

interface Outcome {
  root: string;
  hidden: string[];
  expectedHidden: string[];
  insideThroughAlias?: string;
  rootThroughAlias?: string;
  parentThroughAlias?: string;
  holderThroughAlias?: string;
  listedInside: { exitCode: number | null; stdout: string; stderr: string };
  ownName: string;
  storeHeldThroughAlias?: string;
  conversationThroughAlias?: string;
  besideStore?: string;
}
let outcome: Outcome;

beforeAll(async () => {
  await requireBubblewrap();
  base = realpathSync(mkdtempSync(join(tmpdir(), 'x-bind-private-')));
  base2 = realpathSync(mkdtempSync(join(tmpdir(), 'x-bind-private-holder-')));
  mkdirSync(join(base, 'tmp'));
  mkdirSync(join(base, 'alias'));
  outcome = runInMountNamespace<Outcome>({
    mounts: 'mount --bind "$1/tmp" "$1/alias" && mount --bind "$1" "$2"',
    args: [base, base2],
    script,
    tmp: join(base, 'tmp'),
  });
}, 150_000);

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
  rmSync(base2, { recursive: true, force: true });
});

describe('the private root through a bind mount of the temporary directory', () => {
  it('is hidden where the mount shows it, not only at its own path', () => {
    expect(outcome.hidden).toEqual(outcome.expectedHidden);
  });

  it('shows a command an empty directory there, not the sandboxes of the server', () => {
    expect(outcome.listedInside).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('refuses a path inside it and a writable path holding its parent, spelled through the second path', () => {
    expect(outcome.insideThroughAlias).toContain(`/${outcome.ownName} lies inside ${outcome.root}`);
    expect(outcome.holderThroughAlias).toContain(`The writable path ${base2} holds`);
    // The root itself and its parent through the alias are hidden (the root is a tmpfs there), as by their paths.
    expect(outcome.rootThroughAlias).toBeUndefined();
    expect(outcome.parentThroughAlias).toBeUndefined();
  });
});

describe('the conversation store through a bind mount of the directory holding it', () => {
  it('is refused as held by the second path, and a conversation of it as lain inside', () => {
    expect(outcome.storeHeldThroughAlias).toContain(`readable path ${base}/alias holds the conversation store`);
    expect(outcome.conversationThroughAlias).toContain(
      `workspace ${base}/alias/store/conversation-1 lies inside a conversation of the conversation store`,
    );
    expect(outcome.besideStore).toBeUndefined();
  });
});
