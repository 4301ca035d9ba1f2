import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidSandboxPolicyError, runSandboxed } from '@x/agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../conversations/errors/invalid-request-error.js';
import { resolveServerSandboxing, type ServerSandboxing } from './server-sandboxing.js';

let root: string;
let dataDir: string;
let sandboxing: ServerSandboxing;

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'x-server-sandboxing-')));
  dataDir = join(root, 'home', '.x');
  mkdirSync(join(dataDir, 'workspaces', 'other'), { recursive: true });
  mkdirSync(join(root, 'elsewhere'));
  // Symlinks anyone (a sandboxed command in its workspace, for one) could have left on the host.
  symlinkSync(join(root, 'home'), join(root, 'elsewhere', 'to-home'));
  symlinkSync(join(dataDir, 'workspaces', 'other'), join(root, 'elsewhere', 'to-other-workspace'));
  sandboxing = await resolveServerSandboxing({ unsandboxed: false, dataDir, warn: () => undefined });
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("a sandbox policy that would show the server's data directory", () => {
  it('is refused in a request, written plainly or through a symlink to it or to a directory holding it', () => {
    for (const path of [
      dataDir,
      join(root, 'home'),
      join(dataDir, 'workspaces', 'other'),
      join(root, 'elsewhere', 'to-home'),
      join(root, 'elsewhere', 'to-other-workspace'),
    ]) {
      for (const policy of [{ readablePaths: [path] }, { writablePaths: [path] }])
        expect(() => sandboxing.policyFor(policy), path).toThrow(InvalidRequestError);
    }
    expect(sandboxing.policyFor({ readablePaths: [join(root, 'elsewhere')] }).readablePaths).toEqual([
      join(root, 'elsewhere'),
    ]);
  });

  it('is dropped from a stored conversation, which still opens', () => {
    const policy = sandboxing.storedPolicy({
      readablePaths: [join(root, 'elsewhere', 'to-home'), join(root, 'elsewhere')],
      writablePaths: [join(root, 'elsewhere', 'to-other-workspace')],
    });
    expect(policy.readablePaths).toEqual([join(root, 'elsewhere')]);
    expect(policy.writablePaths).toEqual([]);
  });
});

describe('a sandbox path accepted in a request that becomes a symlink into the data directory before a sandbox opens', () => {
  it('is refused when the sandbox opens, the path it leads to named; a path still outside opens (the control)', async () => {
    const workspace = join(root, 'workspace');
    mkdirSync(workspace);
    const later = join(root, 'elsewhere', 'made-later');
    const policy = sandboxing.policyFor({ readablePaths: [later] });
    // Another sandbox's command (in a writable /tmp, or a workspace of its own) makes it a symlink to the data.
    symlinkSync(dataDir, later);
    const refused = await sandboxing.open({ policy, workspace }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidSandboxPolicyError);
    expect((refused as Error).message).toContain(`now leads to ${dataDir}, which overlaps the server's data directory`);

    const allowed = await sandboxing.open({
      policy: sandboxing.policyFor({ readablePaths: [join(root, 'elsewhere')] }),
      workspace,
    });
    try {
      const result = await runSandboxed(allowed, {
        command: '/bin/sh',
        args: ['-c', 'echo opened'],
        cwd: workspace,
        env: { PATH: '/usr/bin:/bin' },
      });
      expect(result.stdout).toBe('opened\n');
    } finally {
      await allowed.dispose();
    }
  });
});

describe("a working directory in another conversation's workspace, made a symlink to the data directory since", () => {
  it('is refused as the workspace of a sandbox; a working directory that is still one opens (the control)', async () => {
    const withRoot = await resolveServerSandboxing({
      unsandboxed: false,
      dataDir,
      workspaceRoot: join(dataDir, 'workspaces'),
      warn: () => undefined,
    });
    const policy = withRoot.policyFor({});
    const workingDir = join(dataDir, 'workspaces', 'other', 'sub');
    mkdirSync(workingDir);
    const control = await withRoot.open({ policy, workspace: workingDir });
    await control.dispose();
    // The other conversation's command renames it and leaves a symlink to the data directory in its place.
    renameSync(workingDir, `${workingDir}.moved`);
    symlinkSync(dataDir, workingDir);
    const refused = await withRoot.open({ policy, workspace: workingDir }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidSandboxPolicyError);
    expect((refused as Error).message).toContain(`now leads to ${dataDir}`);
  });
});
