import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SandboxPolicyInput, sandboxPolicySchema } from '../sandbox/sandbox-policy.js';
import { assertStoreOutsideSandbox } from './store-outside-sandbox.js';

let home: string;
let store: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'x-store-guard-'));
  store = join(home, '.x', 'conversations');
  await mkdir(join(home, 'project'), { recursive: true });
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const own = 'c0ffee';

function check(workspace: string, policy: SandboxPolicyInput = {}, storeRoot = store): Promise<void> {
  return assertStoreOutsideSandbox({
    policy: sandboxPolicySchema.parse(policy),
    workspace,
    storeRoot,
    conversationDirectory: own,
  });
}

describe('assertStoreOutsideSandbox', () => {
  it('refuses a workspace or writable path that holds the store, or lies inside it, naming both', async () => {
    await expect(check(home)).rejects.toMatchObject({
      code: 'sandbox_policy_invalid',
      message: expect.stringContaining(`The sandbox's workspace ${home} holds the conversation store ${store}`),
    });
    await expect(check(join(home, 'project'), { writablePaths: [home] })).rejects.toThrow(
      `The sandbox's writable path ${home} holds the conversation store`,
    );
    await expect(check(store)).rejects.toThrow(`workspace ${store} holds`);
  });

  it("refuses a mount inside this conversation's directory or another's, not one beside them in the store", async () => {
    await mkdir(join(store, 'other', 'sub'), { recursive: true });
    await writeFile(join(store, 'other', 'base_state.json'), '{}');
    await expect(check(join(store, own))).rejects.toThrow(
      `workspace ${join(store, own)} lies inside a conversation of`,
    );
    await expect(check(join(home, 'project'), { writablePaths: [join(store, 'other', 'sub')] })).rejects.toThrow(
      'lies inside a conversation of the conversation store',
    );
    await expect(check(join(store, 'fork-workspace'))).resolves.toBeUndefined();
  });

  it('follows symlinks: a workspace linking to the home directory holds its store', async () => {
    await symlink(home, join(home, 'project', 'home-link'));
    await expect(check(join(home, 'project', 'home-link'))).rejects.toThrow('holds the conversation store');
  });

  it('refuses a readable path that holds the store or lies inside one of its conversations, with the same error', async () => {
    await expect(check(join(home, 'project'), { readablePaths: [home] })).rejects.toMatchObject({
      code: 'sandbox_policy_invalid',
      message: expect.stringContaining(
        `The sandbox's readable path ${home} holds the conversation store ${store}: a sandboxed command could read`,
      ),
    });
    await expect(check(join(home, 'project'), { readablePaths: [join(home, '.x')] })).rejects.toThrow(
      'holds the conversation store',
    );
    await mkdir(join(store, own, 'events'), { recursive: true });
    await expect(check(join(home, 'project'), { readablePaths: [join(store, own, 'events')] })).rejects.toThrow(
      `readable path ${join(store, own, 'events')} lies inside a conversation of`,
    );
  });

  it('sees through every spelling of a path: a symlink, a trailing slash, `..` after a symlink', async () => {
    await mkdir(store, { recursive: true });
    await symlink(join(home, '.x'), join(home, 'project', 'dot-x'));
    const project = join(home, 'project');
    await expect(check(project, { readablePaths: [join(project, 'dot-x')] })).rejects.toThrow('holds the');
    await expect(check(project, { readablePaths: [`${home}/`] })).rejects.toThrow('holds the');
    await expect(check(`${home}//`, {})).rejects.toThrow('holds the');
    await expect(check(project, { readablePaths: [`${project}/../.x/conversations/..`] })).rejects.toThrow('holds');
    // `dot-x/..` is where the symlink's target lies (the home directory), not the project holding the link.
    await expect(check(project, { readablePaths: [`${project}/dot-x/..`] })).rejects.toThrow('holds the');
    await expect(check(project, { writablePaths: [`${project}/dot-x/..`] })).rejects.toThrow('holds the');
    await expect(check(`${project}/dot-x/..`)).rejects.toThrow(`workspace ${project}/dot-x/.. holds the`);
  });

  it('leaves alone a workspace or a readable path beside the store, the opt-out and non-local stores', async () => {
    await expect(check(join(home, 'project'))).resolves.toBeUndefined();
    // `.x-other` starts like `.x` but is not inside it.
    await expect(check(join(home, '.x-other'))).resolves.toBeUndefined();
    await expect(check(join(home, 'project'), { readablePaths: [join(home, 'project')] })).resolves.toBeUndefined();
    await expect(check(join(home, 'project'), { readablePaths: [join(home, '.x-other')] })).resolves.toBeUndefined();
    await expect(check(home, { mode: 'unsandboxed' })).resolves.toBeUndefined();
    await expect(check(home, {}, 's3://bucket/prefix/')).resolves.toBeUndefined();
    await expect(check(home, {}, 'memory://store-1/')).resolves.toBeUndefined();
  });
});
