import { execFileSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { NotRegularFileError } from '../src/errors/not-regular-file-error.js';
import { StoreError } from '../src/errors.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';

const base = mkdtempSync(join(tmpdir(), 'x-store-confine-'));
let counter = 0;
afterAll(() => rm(base, { recursive: true, force: true, maxRetries: 5 }));

const SECRET = 'SECRET-OUTSIDE-THE-ROOT';

/** Every file and directory under `dir` with its content (files) or `dir` marker, and each entry's ino. */
function snapshot(dir: string): string {
  const lines: string[] = [];
  const visit = (path: string, rel: string): void => {
    for (const name of readdirSync(path).sort()) {
      const full = join(path, name);
      const info = lstatSync(full);
      if (info.isDirectory()) {
        lines.push(`${rel}${name}/ ${info.ino}`);
        visit(full, `${rel}${name}/`);
      } else if (info.isFile()) lines.push(`${rel}${name} ${info.ino} ${readFileSync(full, 'utf8')}`);
      else lines.push(`${rel}${name} ${info.ino} special`);
    }
  };
  visit(dir, '');
  return lines.join('\n');
}

/** A fresh root with `a/b/c/file.json` (and siblings), and an outside tree holding the same names with secrets. */
async function setup() {
  const n = ++counter;
  const root = join(base, `root-${n}`);
  const outside = join(base, `outside-${n}`);
  const store = createLocalFileStore({ root, durability: 'fsync' });
  for (const path of ['a/b/c/file.json', 'a/b/file.json', 'a/file.json', 'a/b/c/other.json']) {
    await store.write(path, `inside ${path}`);
  }
  for (const dir of ['', 'b', 'b/c', 'c']) await mkdir(join(outside, dir), { recursive: true });
  for (const file of ['file.json', 'b/file.json', 'b/c/file.json', 'c/file.json', 'other.json', 'c/other.json']) {
    await writeFile(join(outside, file), SECRET);
  }
  return { root, outside, store };
}

/** Runs `action`; returns its value, or the StoreError it threw (anything else fails the test). */
async function attempt(action: () => Promise<unknown>): Promise<unknown> {
  try {
    return await action();
  } catch (error) {
    if (!StoreError.isInstance(error)) throw new Error(`expected a StoreError, got ${String(error)}`, { cause: error });
    return error;
  }
}

/** Every operation on every path at and below `level`, as [name, action] pairs. */
function everyOperation(store: FileStore, level: string): [string, () => Promise<unknown>][] {
  const paths = [`${level}/file.json`, `${level}/c/file.json`, `${level}/new.json`, `${level}/new/deeper/x.json`];
  const operations: [string, () => Promise<unknown>][] = [];
  for (const path of paths) {
    operations.push(
      [`read ${path}`, () => store.read(path)],
      [`write ${path}`, () => store.write(path, 'x')],
      [`writeIfAbsent ${path}`, () => store.writeIfAbsent(path, 'x')],
      [`copy from ${path}`, () => store.copy(path, 'copied.json')],
      [`copy to ${path}`, () => store.copy('a/file.json', path)],
      [`exists ${path}`, () => store.exists(path)],
      [`delete ${path}`, () => store.delete(path)],
    );
  }
  operations.push(
    [`list ${level}`, () => store.list(level)],
    [`list ${level}/c`, () => store.list(`${level}/c`)],
    [`delete ${level}`, () => store.delete(level)],
    [`exists ${level}`, () => store.exists(level)],
    [`listingVersion ${level}`, () => store.listingVersion!(level)],
    [`listingVersion ${level}/c`, () => store.listingVersion!(`${level}/c`)],
  );
  return operations;
}

describe('local FileStore confinement', () => {
  for (const level of ['a', 'a/b', 'a/b/c']) {
    it(`never reaches outside the root when ${level} is swapped for a link to outside (after being used)`, async () => {
      const { root, outside, store } = await setup();
      const before = snapshot(outside);
      // The directories were used (and under the old design cached) before the swap.
      expect(await store.read(`${level}/file.json`)).toBe(`inside ${level}/file.json`);
      await rename(join(root, level), join(root, `${level}-moved`));
      const target = level === 'a/b/c' ? outside : join(outside, 'b');
      await symlink(target, join(root, level));

      for (const [name, action] of everyOperation(store, level)) {
        const result = await attempt(action);
        if (typeof result === 'string') expect(result, name).not.toContain(SECRET);
        if (Array.isArray(result)) expect(result, name).toEqual([]);
        expect(snapshot(outside), name).toBe(before);
      }
      // The link itself may be removed by `delete` (never what it points to).
      expect(statSync(target).isDirectory()).toBe(true);
    });
  }

  it('refuses links of every kind: to outside, dangling, to inside, as the last component', async () => {
    const { root, outside, store } = await setup();
    const before = snapshot(outside);
    await symlink(join(outside, 'not-yet'), join(root, 'dangling'));
    await symlink(join(root, 'a'), join(root, 'inner'));
    await symlink(join(outside, 'file.json'), join(root, 'a', 'secret.json'));
    await symlink(join(outside, 'new-file.json'), join(root, 'a', 'dangling.json'));

    for (const path of ['dangling/x.json', 'dangling/deep/er/x.json', 'inner/file.json', 'inner/b/file.json']) {
      for (const action of [
        () => store.read(path),
        () => store.write(path, 'x'),
        () => store.writeIfAbsent(path, 'x'),
      ]) {
        const error = await attempt(action);
        expect(StoreError.isInstance(error) && error.code, path).toBe('invalid_path');
      }
    }
    // `mkdir -p` through a dangling link created nothing where it points.
    expect(readdirSync(outside)).not.toContain('not-yet');
    for (const path of ['a/secret.json', 'a/dangling.json']) {
      const error = await attempt(() => store.read(path));
      expect(StoreError.isInstance(error) && error.code, path).toBe('invalid_path');
      const copied = await attempt(() => store.copy(path, 'a/copy.json'));
      expect(StoreError.isInstance(copied) && copied.code, path).toBe('invalid_path');
    }
    // A link as the last component is an entry: writeIfAbsent sees it, write replaces it, delete removes it.
    expect(await store.writeIfAbsent('a/dangling.json', 'x')).toBe(false);
    await store.write('a/secret.json', 'replaced');
    expect(lstatSync(join(root, 'a', 'secret.json')).isFile()).toBe(true);
    await store.delete('a/dangling.json');
    expect(snapshot(outside)).toBe(before);
    expect(await store.list('a')).toEqual(['a/b/', 'a/file.json', 'a/secret.json']);
  });

  it('rejects `..`, absolute paths, NUL bytes and backslashes on every operation', async () => {
    const { outside, store } = await setup();
    const before = snapshot(outside);
    const relative = `../outside-${counter}/file.json`;
    for (const path of [
      relative,
      `a/../../outside-${counter}/file.json`,
      join(outside, 'file.json'),
      'a/\0x',
      'a\\..\\x',
    ]) {
      for (const action of [
        () => store.read(path),
        () => store.write(path, 'x'),
        () => store.writeIfAbsent(path, 'x'),
        () => store.copy(path, 'x.json'),
        () => store.copy('a/file.json', path),
        () => store.list(path),
        () => store.delete(path),
        () => store.exists(path),
      ]) {
        const error = await attempt(action);
        expect(StoreError.isInstance(error) && error.code, path).toBe('invalid_path');
      }
    }
    expect(snapshot(outside)).toBe(before);
  });

  it('stays confined while another process swaps a directory for a link to outside, over and over', async () => {
    const { root, outside, store } = await setup();
    const before = snapshot(outside);
    const swapper = `
      const fs = require('node:fs');
      const [dir, moved, target] = process.argv.slice(1);
      const end = Date.now() + 1500;
      while (Date.now() < end) {
        try { fs.renameSync(dir, moved); fs.symlinkSync(target, dir); fs.unlinkSync(dir); fs.renameSync(moved, dir); } catch {}
      }
      try { fs.unlinkSync(dir); } catch {}
      try { fs.renameSync(moved, dir); } catch {}
    `;
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['-e', swapper, join(root, 'a', 'b'), join(root, 'a', 'b-moved'), outside]);
    const exited = new Promise((resolve) => child.on('exit', resolve));
    let reads = 0;
    for (let i = 0; child.exitCode === null && i < 5000; i++) {
      const results = await Promise.all([
        attempt(() => store.read('a/b/file.json')),
        attempt(() => store.read('a/b/c/file.json')),
        attempt(() => store.write(`a/b/w-${i % 7}.json`, 'x')),
        attempt(() => store.writeIfAbsent(`a/b/c/n-${i}.json`, 'x')),
        attempt(() => store.copy('a/file.json', `a/b/copy-${i % 5}.json`)),
        attempt(() => store.list('a/b/c')),
        attempt(() => store.delete(`a/b/c/n-${i - 1}.json`)),
      ]);
      for (const result of results) {
        if (typeof result === 'string') {
          reads++;
          expect(result).not.toContain(SECRET);
        }
      }
    }
    await exited;
    expect(reads).toBeGreaterThan(0);
    expect(snapshot(outside)).toBe(before);
  }, 120_000);

  it('keeps working in the original root when the root path is swapped for a link', async () => {
    const { root, outside, store } = await setup();
    const before = snapshot(outside);
    await rename(root, `${root}-moved`);
    await symlink(outside, root);
    await store.write('a/after.json', 'y');
    expect(await store.read('a/file.json')).toBe('inside a/file.json');
    expect(await readFile(join(`${root}-moved`, 'a', 'after.json'), 'utf8')).toBe('y');
    expect(snapshot(outside)).toBe(before);
  });

  it('refuses FIFOs and sockets with not_regular_file without blocking, and lists, detects and deletes them', async () => {
    const { root, store } = await setup();
    execFileSync('mkfifo', [join(root, 'a', 'fifo.json')]);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(root, 'a', 'socket.json'), resolve));
    try {
      for (const path of ['a/fifo.json', 'a/socket.json']) {
        for (const action of [() => store.read(path), () => store.copy(path, 'a/copy.json')]) {
          const error = await attempt(action);
          expect(StoreError.isInstance(error) && error.code, path).toBe('not_regular_file');
          expect((error as Error).message).toContain(join(root, 'a', path.slice(2)));
          expect((error as NotRegularFileError).fileType, path).toBe(path === 'a/fifo.json' ? 'FIFO' : 'socket');
        }
        expect(await store.exists(path)).toBe(true);
        expect(await store.writeIfAbsent(path, 'x')).toBe(false);
      }
      expect(await store.list('a')).toEqual(['a/b/', 'a/fifo.json', 'a/file.json', 'a/socket.json']);
      await store.delete('a/fifo.json');
      await store.write('a/socket.json', 'now a file');
      expect(await store.read('a/socket.json')).toBe('now a file');
      expect(await store.list('a')).toEqual(['a/b/', 'a/file.json', 'a/socket.json']);
    } finally {
      server.close();
    }
  });

  it('treats a directory where a file is expected as missing, and a file where a directory is expected too', async () => {
    const { store } = await setup();
    for (const action of [
      () => store.read('a/b'),
      () => store.copy('a/b', 'x.json'),
      () => store.read('a/file.json/x'),
    ]) {
      const error = await attempt(action);
      expect(StoreError.isInstance(error) && error.code).toBe('file_not_found');
    }
    expect(await store.list('a/file.json')).toEqual([]);
    expect(await store.exists('a/file.json/x')).toBe(false);
  });

  it('refuses the listing version of a directory reached through a link', async () => {
    const { root, outside, store } = await setup();
    await symlink(outside, join(root, 'linked'));
    const error = await attempt(() => store.listingVersion!('linked'));
    expect(StoreError.isInstance(error) && error.code).toBe('invalid_path');
    expect(await store.listingVersion!('a')).toMatch(/^\d+:\d+:\d+$/);
  });

  it('deletes a tree without following the links inside it', async () => {
    const { root, outside, store } = await setup();
    const before = snapshot(outside);
    await symlink(outside, join(root, 'a', 'b', 'c', 'to-outside'));
    await symlink(join(outside, 'file.json'), join(root, 'a', 'b', 'to-file'));
    await store.delete('a');
    expect(readdirSync(root)).toEqual([]);
    expect(snapshot(outside)).toBe(before);
  });
});
