// The rule that hides private files of /etc in every sandbox, checked on a directory of ours (whoever runs the
// tests): a file others may not read, and a directory others may not enter, are the owner's secrets.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeSandboxSupport } from '../detect-sandbox-support.js';
import { SandboxHostScanError } from '../sandbox-host-scan-error.js';
import { ETC_SCAN_LIMIT, privateEntries, readHostLayout } from './host-layout.js';

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
  it("mounts a `node` outside the system's, the binary alone by its real path, and nothing for one inside", () => {
    // A `node` installed under a home or /opt (nvm, a tarball), reached through a symlink as a version manager does.
    mkdirSync(join(root, 'opt-node', 'bin'), { recursive: true });
    writeFileSync(join(root, 'opt-node', 'bin', 'node'), '');
    symlinkSync(join(root, 'opt-node', 'bin', 'node'), join(root, 'node-link'));
    const outside = readHostLayout({ execPath: join(root, 'node-link') });
    const real = realpathSync(join(root, 'opt-node', 'bin', 'node'));
    expect(outside.node).toBe(real);
    expect(outside.runtimeFiles).toEqual([real]);
    // Debian's own node is under /usr, mounted already.
    const inside = readHostLayout({ execPath: '/usr/bin/env' });
    expect(inside.node).toBe('/usr/bin/env');
    expect(inside.runtimeFiles).toEqual([]);
  });
});

describe('the scan of a directory larger than its limit', () => {
  /** 24 public files at the top, then a directory holding one private file: 26 entries, the secret the last seen. */
  function largeEtc(): { etc: string; secret: string } {
    const etc = mkdtempSync(join(root, 'large-etc-'));
    for (let index = 0; index < 24; index += 1) writeFileSync(join(etc, `public-${index}.conf`), 'x');
    mkdirSync(join(etc, 'late'));
    const secret = join(etc, 'late', 'private.key');
    writeFileSync(secret, 'x');
    chmodSync(secret, 0o600);
    return { etc, secret };
  }

  it('finds every entry up to the limit, and fails closed one past it, naming the directory and the limit', () => {
    const { etc, secret } = largeEtc();
    expect(privateEntries(etc, 26).files).toEqual([secret]);
    let thrown: unknown;
    try {
      privateEntries(etc, 25);
    } catch (error) {
      thrown = error;
    }
    expect(SandboxHostScanError.isInstance(thrown)).toBe(true);
    const error = thrown as SandboxHostScanError;
    expect(error.code).toBe('sandbox_host_scan_limit');
    expect([error.root, error.limit]).toEqual([etc, 25]);
    expect(error.message).toContain(`${etc} holds more than 25 entries`);
  });

  it('refuses the host layout, and the probe reports no sandbox, rather than leave the rest unhidden', async () => {
    const { etc } = largeEtc();
    expect(() => readHostLayout({ etcScan: { root: etc, limit: 10 } })).toThrow(SandboxHostScanError);
    expect(readHostLayout({ etcScan: { root: etc, limit: 26 } }).hiddenFiles).toContain(
      join(etc, 'late', 'private.key'),
    );
    const support = await probeSandboxSupport({ etcScan: { root: etc, limit: 10 } });
    expect(support).toEqual({ available: false, reason: expect.stringContaining('more than 10 entries') });
  });

  it("leaves room by default for a stock /etc (one or two thousand entries): this machine's is scanned whole", () => {
    expect(privateEntries('/etc', ETC_SCAN_LIMIT / 10).files.length).toBeGreaterThanOrEqual(0);
    expect(() => readHostLayout()).not.toThrow();
  });
});
