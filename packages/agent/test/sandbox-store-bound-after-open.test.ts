// The store's guard runs when a conversation's sandbox opens; a bind of the store (here of one conversation's
// directory) made below a mounted path after that would be mounted into every later command, as bubblewrap binds a
// path with every mount below it at each command. The guard runs again before a command whenever the mount table
// changed. Mounts need privileges, so the scenario runs in a user and mount namespace of its own (`unshare -Urm`), by
// tsx from the sources; the sandbox it opens is the real one.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInMountNamespace } from './support/mount-namespace.js';
import { requireBubblewrap } from './support/sandbox-fixture.js';

const script = fileURLToPath(new URL('./support/store-bound-after-open.ts', import.meta.url));
let base: string;
let outcome: { beforeBind: string; afterBind: string; afterUnbind: string };

beforeAll(async () => {
  await requireBubblewrap();
  base = realpathSync(mkdtempSync(join(tmpdir(), 'x-store-bound-after-open-')));
  for (const directory of [
    'tmp',
    'quiet',
    'readable/peek',
    'store/conversation-1/events',
    'store/conversation-2/events',
  ])
    mkdirSync(join(base, directory), { recursive: true });
  writeFileSync(join(base, 'readable', 'peek', 'plain.txt'), 'nothing of the store');
  writeFileSync(join(base, 'store', 'conversation-2', 'base_state.json'), '{}');
  writeFileSync(join(base, 'store', 'conversation-2', 'events', 'event-00001.json'), '{}');
  outcome = runInMountNamespace({ mounts: 'true', args: [base], script, tmp: join(base, 'tmp') });
}, 150_000);

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

describe('a bind of the store made after the sandbox opened', () => {
  it('is refused at the next command, naming the mount, where the open had nothing to refuse', () => {
    expect(outcome.beforeBind).toBe('listed: plain.txt');
    expect(outcome.afterBind).toContain(
      `InvalidSandboxPolicyError: The sandbox's mount ${base}/readable/peek (below its readable path ${base}/readable) ` +
        `lies inside a conversation of the conversation store ${base}/store`,
    );
    expect(outcome.afterBind).not.toContain('event-00001.json');
  });

  it('lets commands run again once the bind is gone', () => {
    expect(outcome.afterUnbind).toBe('listed: plain.txt');
  });
});
