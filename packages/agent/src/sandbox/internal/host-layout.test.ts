// The rule that hides private files of /etc in every sandbox, checked on a directory of ours (whoever runs the
// tests): a file others may not read, and a directory others may not enter, are the owner's secrets.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { privateEntries } from './host-layout.js';

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
