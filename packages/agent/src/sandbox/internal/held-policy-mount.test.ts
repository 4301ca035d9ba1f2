import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { holdPolicyMount, holdPolicyMounts, mountKindAt, releasePolicyMounts } from './held-policy-mount.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'x-held-mount-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** This process's descriptors open on `path`. */
function descriptorsOn(path: string): string[] {
  return readdirSync('/proc/self/fd').filter((descriptor) => {
    try {
      return readlinkSync(`/proc/self/fd/${descriptor}`) === path;
    } catch {
      return false;
    }
  });
}

function fifo(path: string): string {
  const made = spawnSync('mkfifo', [path]);
  if (made.status !== 0) throw new Error(`mkfifo: ${made.stderr}`);
  return path;
}

describe('holdPolicyMount', () => {
  it('holds a directory or a regular file on a descriptor that names it, and releases it', () => {
    const directory = join(root, 'dir');
    mkdirSync(directory);
    const file = join(root, 'file.txt');
    writeFileSync(file, 'x');
    const held = holdPolicyMounts([
      { path: directory, expected: 'directory' },
      { path: file, expected: undefined },
    ]);
    const descriptors = held.map((mount) => ('held' in mount ? mount.held : -1));
    expect(descriptors.map((descriptor) => readlinkSync(`/proc/self/fd/${descriptor}`))).toEqual([directory, file]);
    releasePolicyMounts(held);
    for (const descriptor of descriptors) expect(existsSync(`/proc/self/fd/${descriptor}`)).toBe(false);
  });

  it('never waits on a FIFO (an open for reading would wait for a writer): refused, naming what it is', () => {
    // A FIFO with no writer: were it opened for reading, this test would hang here.
    const path = fifo(join(root, 'pipe'));
    expect(holdPolicyMount(path, 'directory')).toEqual({
      path,
      refused: 'is a FIFO (named pipe) now, not the directory the sandbox found there',
    });
    expect(holdPolicyMount(path, undefined)).toEqual({
      path,
      refused: 'is a FIFO (named pipe) now, not the directory or regular file the sandbox found there',
    });
    // Refused, it is not held either.
    expect(descriptorsOn(path)).toEqual([]);
  });

  it('refuses a socket, a device, and another kind than the one the sandbox found', async () => {
    const descriptorsBefore = descriptorsOn('/dev/null').length;
    const socket = join(root, 'sock');
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      expect(holdPolicyMount(socket, 'file')).toEqual({
        path: socket,
        refused: 'is a socket now, not the regular file the sandbox found there',
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const file = join(root, 'was-a-directory');
    writeFileSync(file, 'x');
    expect(holdPolicyMount(file, 'directory')).toMatchObject({
      refused: expect.stringContaining('a regular file now'),
    });
    expect(holdPolicyMount(root, 'file')).toMatchObject({ refused: expect.stringContaining('a directory now') });
    expect(holdPolicyMount('/dev/null', 'file')).toEqual({
      path: '/dev/null',
      refused: 'is a device now, not the regular file the sandbox found there',
    });
    expect(descriptorsOn('/dev/null').length).toBeLessThanOrEqual(descriptorsBefore);
  });

  it('refuses a symlink on the way or in its place, and a path that is gone, as not where the sandbox found it', () => {
    const target = join(root, 'target');
    mkdirSync(target);
    symlinkSync(target, join(root, 'link'));
    const moved = 'is gone, or is not where the sandbox found it (a symlink or a rename put in its place)';
    expect(holdPolicyMount(join(root, 'link'), 'directory')).toEqual({ path: join(root, 'link'), refused: moved });
    mkdirSync(join(target, 'sub'));
    expect(holdPolicyMount(join(root, 'link', 'sub'), 'directory')).toMatchObject({ refused: moved });
    expect(holdPolicyMount(join(root, 'missing'), 'directory')).toMatchObject({ refused: moved });
  });
});

describe('mountKindAt', () => {
  it('says directory, file, or nothing for anything else', () => {
    writeFileSync(join(root, 'file'), 'x');
    expect(mountKindAt(root)).toBe('directory');
    expect(mountKindAt(join(root, 'file'))).toBe('file');
    expect(mountKindAt(fifo(join(root, 'pipe')))).toBeUndefined();
    expect(mountKindAt(join(root, 'missing'))).toBeUndefined();
  });
});
