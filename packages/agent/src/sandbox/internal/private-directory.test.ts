// The host directory the sandbox keeps its own files in: made private, refused when found open to others, hidden
// from every sandbox that would see it. What a command can do to it, through the real sandbox, is in
// test/sandbox-private-files.test.ts.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InvalidSandboxPolicyError } from '../invalid-sandbox-policy-error.js';
import type { SandboxUnavailableError } from '../sandbox-unavailable-error.js';

type PrivateDirectory = typeof import('./private-directory.js') & {
  SandboxUnavailableError: typeof SandboxUnavailableError;
  InvalidSandboxPolicyError: typeof InvalidSandboxPolicyError;
};

let scratch: string;
const originalTmpdir = process.env.TMPDIR;

/**
 * The module afresh (it caches the root for the process), with TMPDIR at a scratch directory of the test's, and the
 * error classes of the same fresh module graph (the ones it throws).
 */
async function fresh(): Promise<PrivateDirectory> {
  vi.resetModules();
  return {
    ...(await import('./private-directory.js')),
    SandboxUnavailableError: (await import('../sandbox-unavailable-error.js')).SandboxUnavailableError,
    InvalidSandboxPolicyError: (await import('../invalid-sandbox-policy-error.js')).InvalidSandboxPolicyError,
  };
}

beforeEach(() => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'x-private-directory-')));
  process.env.TMPDIR = scratch;
});

afterEach(() => {
  if (originalTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = originalTmpdir;
  vi.restoreAllMocks();
  vi.resetModules();
  rmSync(scratch, { recursive: true, force: true });
});

const uid = process.getuid?.() ?? 0;

describe('the private root', () => {
  it('is made once per user in the temporary directory, open to its owner only', async () => {
    const module = await fresh();
    const root = module.sandboxPrivateRoot();
    expect(root).toBe(join(scratch, `x-sandbox-private-${uid}`));
    expect(statSync(root).mode & 0o777).toBe(0o700);
    expect(module.sandboxPrivateRoot()).toBe(root);
    // Found again by another process of the user (or after a restart): used as it is.
    expect((await fresh()).sandboxPrivateRoot()).toBe(root);
  });

  it('resolves a temporary directory reached through a symlink', async () => {
    const link = join(scratch, 'link');
    mkdirSync(join(scratch, 'real'));
    symlinkSync(join(scratch, 'real'), link);
    process.env.TMPDIR = link;
    expect((await fresh()).sandboxPrivateRoot()).toBe(join(scratch, 'real', `x-sandbox-private-${uid}`));
  });

  it('is refused, naming it, where it is a symlink, open to others, or another user made it', async () => {
    const path = join(scratch, `x-sandbox-private-${uid}`);
    symlinkSync(scratch, path);
    await expect(async () => (await fresh()).sandboxPrivateRoot()).rejects.toThrow(`${path} is not a directory`);
    rmSync(path);

    mkdirSync(path, { mode: 0o700 });
    chmodSync(path, 0o750);
    const open = await fresh();
    expect(() => open.sandboxPrivateRoot()).toThrow(open.SandboxUnavailableError);
    expect(() => open.sandboxPrivateRoot()).toThrow(`${path} is open to others (mode 750)`);
    chmodSync(path, 0o700);

    // As another user would find this user's: its name has the other uid, and its owner is not that uid.
    vi.spyOn(process, 'getuid').mockReturnValue(uid + 4242);
    const other = join(scratch, `x-sandbox-private-${uid + 4242}`);
    mkdirSync(other, { mode: 0o700 });
    await expect(async () => (await fresh()).sandboxPrivateRoot()).rejects.toThrow(
      `${other} belongs to uid ${uid}, not ${uid + 4242}`,
    );
  });

  it('is refused where it cannot be made, saying so', async () => {
    process.env.TMPDIR = join(scratch, 'file');
    writeFileSync(join(scratch, 'file'), '');
    const module = await fresh();
    expect(() => module.sandboxPrivateRoot()).toThrow(module.SandboxUnavailableError);
    expect(() => module.sandboxPrivateRoot()).toThrow(`x-sandbox-private-${uid} could not be made`);
    // A temporary directory that does not exist.
    process.env.TMPDIR = join(scratch, 'missing');
    const missing = await fresh();
    expect(() => missing.sandboxPrivateRoot()).toThrow(missing.SandboxUnavailableError);
    expect(() => missing.sandboxPrivateRoot()).toThrow(
      `${join(scratch, 'missing')}/x-sandbox-private-${uid} could not`,
    );
  });
});

describe("a process's private directory", () => {
  it('lies in the root, is made once, and is removed when the process exits', async () => {
    const module = await fresh();
    const directory = module.processPrivateDirectory();
    expect(dirname(directory)).toBe(module.sandboxPrivateRoot());
    expect(directory).toMatch(new RegExp(`/${process.pid}-[^/]+$`));
    expect(module.processPrivateDirectory()).toBe(directory);

    const source = join(dirname(fileURLToPath(import.meta.url)), 'private-directory.ts');
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(source)}); console.log(m.processPrivateDirectory());`,
      ],
      { encoding: 'utf8', env: { ...process.env, TMPDIR: scratch } },
    );
    expect(child.status, child.stderr).toBe(0);
    const made = child.stdout.trim();
    expect(dirname(made)).toBe(module.sandboxPrivateRoot());
    expect(made).not.toBe(directory);
    expect(existsSync(made)).toBe(false);
    expect(existsSync(directory)).toBe(true);
  });
});

describe('the directories of processes that died without exiting', () => {
  it('are removed by the next process that makes its own; those of live processes, and other names, are kept', async () => {
    const module = await fresh();
    const root = module.sandboxPrivateRoot();
    // A process that is gone: one that was spawned and has been waited for.
    const dead = spawnSync(process.execPath, ['-e', '']).pid as number;
    const left = join(root, `${dead}-killed`);
    mkdirSync(join(left, 'allowlist-x'), { recursive: true });
    writeFileSync(join(left, 'allowlist-x', 'bridge.cjs'), '');
    const live = join(root, `${process.ppid}-live`);
    const other = join(root, 'not-a-process');
    mkdirSync(live);
    mkdirSync(other);
    module.processPrivateDirectory();
    expect(existsSync(left)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(other)).toBe(true);
  });
});

describe('hiding the root', () => {
  it('hides it from a sandbox whose mounts would show it, and from no other', async () => {
    const module = await fresh();
    const root = module.sandboxPrivateRoot();
    for (const mounts of [['/'], [scratch], [root], ['/usr', scratch]])
      expect(module.privateRootHiddenIn(mounts), mounts.join()).toEqual([root]);
    for (const mounts of [[], ['/usr', '/etc'], [`${scratch}-sibling`], [`${root}-x`], [join(scratch, 'work')]])
      expect(module.privateRootHiddenIn(mounts), mounts.join()).toEqual([]);
  });
});

describe('a policy around the root', () => {
  it('may make the temporary directory writable, and anything beside the root', async () => {
    const module = await fresh();
    const root = module.sandboxPrivateRoot();
    expect(() =>
      module.checkPolicyAroundPrivateRoot({ writable: [scratch, join(scratch, 'work'), `${root}-x`], readable: ['/'] }),
    ).not.toThrow();
    expect(() => module.checkPolicyAroundPrivateRoot({ writable: [], readable: [root] })).not.toThrow();
  });

  it('may not make writable what holds the temporary directory, nor mount anything inside the root', async () => {
    const module = await fresh();
    const root = module.sandboxPrivateRoot();
    for (const writable of [['/'], [dirname(scratch)], ['/usr', dirname(scratch)]])
      expect(() => module.checkPolicyAroundPrivateRoot({ writable, readable: [] }), writable.join()).toThrow(
        `The writable path ${writable.at(-1)} holds ${scratch}`,
      );
    for (const paths of [
      { writable: [join(root, 'a')], readable: [] },
      { writable: [], readable: [join(root, String(process.pid))] },
    ]) {
      const check = () => module.checkPolicyAroundPrivateRoot(paths);
      expect(check).toThrow(module.InvalidSandboxPolicyError);
      expect(check).toThrow(`lies inside ${root}`);
    }
  });
});
