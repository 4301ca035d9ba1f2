// A conversation's writable path made a symlink to the conversation store after its policy was checked, before its
// sandbox mounts it (by another sandbox's command, in a directory both can reach): the sandbox would mount the store
// writable, where a command rewrites the policy record a resumed conversation runs under. With real bubblewrap.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalFileStore } from '@x/store';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runSandboxed } from '../src/sandbox/run-sandboxed.js';
import type { Sandbox } from '../src/sandbox/sandbox.js';
import { sandboxPolicySchema } from '../src/sandbox/sandbox-policy.js';
import { createConversationSandbox } from '../src/sandboxing/conversation-sandbox.js';
import { openDefaultSandbox, type SandboxRequest } from '../src/sandboxing/sandbox-opener.js';
import { requireBubblewrap } from './support/sandbox-fixture.js';

let home: string;
beforeAll(async () => {
  await requireBubblewrap();
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

/** A conversation whose policy writes `shared`, opened by `open`; its store at `<home>/store`. */
async function conversationWith(shared: string, open: (request: SandboxRequest) => Promise<Sandbox>) {
  const storeRoot = join(home, 'store');
  await mkdir(join(storeRoot, 'c1'), { recursive: true });
  const workspace = join(home, 'workspace');
  await mkdir(workspace);
  return createConversationSandbox({
    policy: sandboxPolicySchema.parse({ writablePaths: [shared] }),
    workspace,
    open,
    record: { store: createLocalFileStore({ root: storeRoot }), directory: 'c1', sinceEvent: () => 0 },
  });
}

describe('a writable path swapped for a symlink to the store between the check and the mount', () => {
  it('is refused once the sandbox is opened, and nothing runs in it', async () => {
    home = await mkdtemp(join(tmpdir(), 'x-store-swap-'));
    const shared = join(home, 'shared');
    await mkdir(shared);
    let swapped = false;
    const conversation = await conversationWith(shared, async (request) => {
      // The other sandbox's command wins the race: after the check, before the sandbox resolves its paths.
      await rename(shared, `${shared}.moved`);
      await symlink(join(home, 'store'), shared);
      swapped = true;
      return openDefaultSandbox(request);
    });
    await expect(conversation.get()).rejects.toThrow(
      `The sandbox's writable path ${join(home, 'store')} holds the conversation store`,
    );
    expect(swapped).toBe(true);
    await conversation.dispose();
  });

  it('opens, and runs, where nothing was swapped (the control: the same policy is allowed)', async () => {
    home = await mkdtemp(join(tmpdir(), 'x-store-swap-'));
    const shared = join(home, 'shared');
    await mkdir(shared);
    const conversation = await conversationWith(shared, openDefaultSandbox);
    const sandbox = await conversation.get();
    const result = await runSandboxed(sandbox, {
      command: '/bin/sh',
      args: ['-c', `echo written > "${shared}/file"`],
      cwd: shared,
      env: { PATH: '/usr/bin:/bin' },
    });
    expect(result.exitCode).toBe(0);
    expect(await readFile(join(shared, 'file'), 'utf8')).toBe('written\n');
    expect(existsSync(join(home, 'store', 'c1', 'file'))).toBe(false);
    await conversation.dispose();
  });
});
