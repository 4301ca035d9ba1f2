import { execFileSync } from 'node:child_process';
import { link, lstat, mkdir, readdir, readFile, readlink, realpath, symlink, writeFile } from 'node:fs/promises';
import { createServer as createSocketServer, type Server as SocketServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, removeDir, startTestServer, type TestServer, tempDir, waitFor } from './helpers.js';

/**
 * The workspace file routes against real files: FIFOs made with mkfifo, a listening Unix socket, hard and symbolic
 * links to a directory outside the workspace root, and concurrent uploads to one path.
 */
let server: TestServer;
let root: string;
let outside: string;
let socketServer: SocketServer;

beforeAll(async () => {
  server = await startTestServer();
  root = await realpath(join(server.dataDir, 'workspaces'));
  outside = await tempDir();
  await writeFile(join(outside, 'secret.txt'), 'top secret');
  socketServer = createSocketServer();
  await new Promise<void>((resolve) => socketServer.listen(join(root, 'socket'), resolve));
});

afterAll(async () => {
  await new Promise((resolve) => socketServer.close(resolve));
  await server.stop();
  await removeDir(server.dataDir);
  await removeDir(outside);
});

const q = (path: string) => `?path=${encodeURIComponent(path)}`;

function download(path: string): Promise<Response> {
  return fetch(`${server.url}/api/file/download${q(path)}`);
}

function upload(path: string, bytes: Uint8Array | string): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), 'upload.bin');
  return fetch(`${server.url}/api/file/upload${q(path)}`, { method: 'POST', body: form });
}

describe('non-regular files', () => {
  it('refuses concurrent FIFO downloads at once, and the server still creates and deletes conversations', async () => {
    const fifos = Array.from({ length: 12 }, (_, index) => join(root, `fifo-${index}`));
    for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
    // Nobody ever writes to these FIFOs: an open that waited for a writer would never return.
    const answers = await Promise.all(fifos.map(download));
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { detail: string }).detail).toContain('FIFO');
    }
    // Node's file threads are free: file routes, create and DELETE all still answer.
    await writeFile(join(root, 'plain.txt'), 'plain');
    expect(await (await download(join(root, 'plain.txt'))).text()).toBe('plain');
    const id = await createConversation(server);
    expect((await server.call('DELETE', `/api/conversations/${id}`)).status).toBe(200);
    // An upload never opens the FIFO it would replace.
    expect((await upload(fifos[0]!, 'data')).status).toBe(400);
    expect((await lstat(fifos[0]!)).isFIFO()).toBe(true);
  });

  it('refuses a socket and a directory where a file is expected', async () => {
    const socket = await download(join(root, 'socket'));
    expect(socket.status).toBe(400);
    expect(((await socket.json()) as { detail: string }).detail).toContain('socket');
    await mkdir(join(root, 'adir'), { recursive: true });
    expect((await download(join(root, 'adir'))).status).toBe(400);
    expect((await upload(join(root, 'adir'), 'x')).status).toBe(400);
    expect((await download(root)).status).toBe(400);
  });
});

describe('confinement to the workspace root', () => {
  it('neither reads nor writes through a hard link to a file outside', async () => {
    await link(join(outside, 'secret.txt'), join(root, 'hard.txt'));
    const read = await download(join(root, 'hard.txt'));
    expect(read.status).toBe(403);
    expect(await read.text()).not.toContain('top secret');
    expect((await upload(join(root, 'hard.txt'), 'overwritten')).status).toBe(200);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
    expect(await readFile(join(root, 'hard.txt'), 'utf8')).toBe('overwritten');
  });

  it('follows no symlink out, at any depth, and reaches nothing outside the root', async () => {
    await symlink(join(outside, 'secret.txt'), join(root, 'leak'));
    await symlink(outside, join(root, 'out'));
    for (const path of [
      join(root, 'leak'),
      join(root, 'out', 'secret.txt'),
      join(outside, 'secret.txt'),
      '/etc/passwd',
    ]) {
      expect((await download(path)).status, path).toBe(403);
      expect((await upload(path, 'pwned')).status, path).toBe(403);
    }
    expect((await upload(join(root, 'out', 'new-dir', 'f.txt'), 'pwned')).status).toBe(403);
    expect(await readdir(outside)).toEqual(['secret.txt']);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
    // A conversation asking for "/" as its working directory does not open the disk to the file routes.
    const { status, json } = await server.call('POST', '/api/conversations', {
      ...(await import('./helpers.js')).createRequest(server.llm),
      workspace: { working_dir: '/' },
    });
    expect(status).toBe(422);
    expect(JSON.stringify(json)).toContain('working_dir');
    expect((await download('/etc/passwd')).status).toBe(403);
  });

  it('leaves one whole file after 40 concurrent uploads to one path, and no temporary file', async () => {
    const target = join(root, 'race', 'target.bin');
    const size = 256 * 1024;
    const contents = Array.from({ length: 40 }, (_, index) => new Uint8Array(size).fill(index + 1));
    const answers = await Promise.all(contents.map((bytes) => upload(target, bytes)));
    for (const answer of answers) expect(answer.status).toBe(200);
    const result = await readFile(target);
    expect(result.length).toBe(size);
    expect(new Set(result).size).toBe(1);
    expect(await readdir(join(root, 'race'))).toEqual(['target.bin']);
  });

  // Aborted downloads whose connections the client keeps also must not hold shutdown: afterAll's stop() waits.
  it('closes every file it opens: HEAD requests and aborted downloads leave no descriptor open', async () => {
    const path = join(root, 'fd-check.bin');
    await writeFile(path, Buffer.alloc(4 * 1024 * 1024, 7));
    const openFiles = async () => {
      let count = 0;
      for (const fd of await readdir('/proc/self/fd')) {
        const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
        if (target === path) count += 1;
      }
      return count;
    };
    for (let index = 0; index < 20; index += 1) {
      const head = await fetch(`${server.url}/api/file/download${q(path)}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      const controller = new AbortController();
      const partial = await fetch(`${server.url}/api/file/download${q(path)}`, { signal: controller.signal });
      await (partial.body as ReadableStream<Uint8Array>).getReader().read();
      controller.abort();
    }
    await waitFor(async () => (await openFiles()) === 0);
  });
});
