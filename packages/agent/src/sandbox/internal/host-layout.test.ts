// The rule that hides private files of /etc in every sandbox, checked on a directory of ours (whoever runs the
// tests): a file others may not read, and a directory others may not enter, are the owner's secrets.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { privateEntries, readHostLayout } from './host-layout.js';

const root = mkdtempSync(join(tmpdir(), 'x-host-layout-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('privateEntries', () => {
  it('names files others may not read and directories others may not enter, at any depth, and nothing else', () => {
    const file = (path: string, mode: number) => {
      writeFileSync(join(root, path), 'x');
      chmodSync(join(root, path), mode);
    };
    const directory = (path: string, mode: number) => {
      mkdirSync(join(root, path));
      chmodSync(join(root, path), mode);
    };
    file('public.conf', 0o644);
    file('private.key', 0o600);
    file('group-only.conf', 0o640);
    directory('open', 0o755);
    file('open/nested-secret', 0o600);
    file('open/nested-public', 0o644);
    directory('closed', 0o700);
    file('closed/inside', 0o644);
    directory('listable-only', 0o751); // others may enter but not list: still private
    directory('readable-only', 0o754); // others may list but not enter
    symlinkSync(join(root, 'private.key'), join(root, 'link-to-private'));
    const found = privateEntries(root);
    expect(found.files.sort()).toEqual(
      ['group-only.conf', 'private.key', 'open/nested-secret'].map((path) => join(root, path)).sort(),
    );
    // A private directory is hidden whole: what is inside is not looked at.
    expect(found.directories.sort()).toEqual(
      ['closed', 'listable-only', 'readable-only'].map((path) => join(root, path)).sort(),
    );
  });
});

describe('privateEntries of a directory that cannot be read', () => {
  it('names nothing (a host without /etc, or one removed while it is scanned)', () => {
    expect(privateEntries(join(root, 'no-such-directory'))).toEqual({ files: [], directories: [] });
  });
});

describe('readHostLayout', () => {
  it("mounts the directory of a `node` outside the system's, by its real path, and nothing for one inside", () => {
    // A `node` installed under a home or /opt (nvm, a tarball), reached through a symlink as a version manager does.
    mkdirSync(join(root, 'opt-node', 'bin'), { recursive: true });
    writeFileSync(join(root, 'opt-node', 'bin', 'node'), '');
    symlinkSync(join(root, 'opt-node', 'bin', 'node'), join(root, 'node-link'));
    const outside = readHostLayout(join(root, 'node-link'));
    const real = realpathSync(join(root, 'opt-node', 'bin', 'node'));
    expect(outside.node).toBe(real);
    expect(outside.runtimeDirectories).toEqual([dirname(real)]);
    // Debian's own node is under /usr, mounted already.
    const inside = readHostLayout('/usr/bin/env');
    expect(inside.node).toBe('/usr/bin/env');
    expect(inside.runtimeDirectories).toEqual([]);
  });
});
