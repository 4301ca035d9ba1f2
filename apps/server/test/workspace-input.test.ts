import { mkdir, open, readdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, createRequest, removeDir, startTestServer, type TestServer, tempDir } from './helpers.js';

/** Bad input to the routes that take a path or a file: always a 4xx naming the problem, never a 500. */
let server: TestServer;
let root: string;
let outside: string;
const uploadLimit = 64 * 1024;

beforeAll(async () => {
  // bodyLimit (JSON bodies) below uploadLimit: uploads stream and are held to uploadLimit only.
  server = await startTestServer({ config: { uploadLimit, bodyLimit: 16 * 1024 } });
  root = await realpath(join(server.dataDir, 'workspaces'));
  outside = await tempDir();
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
  await removeDir(outside);
});

const q = (path: string) => `?path=${encodeURIComponent(path)}`;

function upload(path: string, bytes: Uint8Array | string): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), 'upload.bin');
  return fetch(`${server.url}/api/file/upload${q(path)}`, { method: 'POST', body: form });
}

/** A multipart upload sent in chunks without a Content-Length; resolves with the status as soon as it arrives. */
function chunkedUpload(path: string, totalBytes: number): Promise<number> {
  const boundary = 'chunked-boundary-1';
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${server.url}/api/file/upload${q(path)}`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' },
    });
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    request.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big"\r\n\r\n`);
    const chunk = Buffer.alloc(16 * 1024, 1);
    let sent = 0;
    const pump = (): void => {
      while (sent < totalBytes) {
        sent += chunk.length;
        if (!request.write(chunk)) {
          request.once('drain', pump);
          return;
        }
      }
      request.end(`\r\n--${boundary}--\r\n`);
    };
    pump();
  });
}

describe('NUL bytes and other malformed paths', () => {
  it('answers a NUL byte in a query, a body or a URL parameter with a 4xx', async () => {
    const nul = `${root}/a\0b`;
    expect((await fetch(`${server.url}/api/file/download${q(nul)}`)).status).toBe(422);
    expect((await upload(nul, 'x')).status).toBe(422);
    const cwd = await server.call('POST', '/api/bash/execute_bash_command', { command: 'true', cwd: nul });
    expect(cwd.status).toBe(422);
    const created = await server.call('POST', '/api/conversations', {
      ...createRequest(server.llm),
      workspace: { working_dir: nul },
    });
    expect(created.status).toBe(422);
    expect(JSON.stringify(created.json)).toContain('working_dir');
  });

  it('answers a NUL byte in any URL parameter of any route with less than a 500', async () => {
    const id = await createConversation(server);
    for (const route of server.built.routes) {
      if (!route.url.includes(':') || route.method === 'HEAD') continue;
      const url = route.url.replace(/:[a-z_]+/g, (name) =>
        name === ':conversation_id' ? id : `x%00y${encodeURIComponent('\0')}`,
      );
      const answer = await fetch(`${server.url}${url}`, {
        method: route.method,
        ...(route.method === 'GET' || route.method === 'DELETE'
          ? {}
          : { headers: { 'content-type': 'application/json' }, body: '{}' }),
      });
      expect(answer.status, `${route.method} ${route.url}`).toBeLessThan(500);
    }
    for (const url of ['/api/conversations/x%00y', `/api/conversations/${id}/events/a%00b`]) {
      expect((await fetch(`${server.url}${url}`)).status, url).toBeLessThan(500);
    }
  });

  it('answers a path component over 255 bytes, a relative path and a missing file with a 4xx', async () => {
    expect((await fetch(`${server.url}/api/file/download${q(join(root, 'n'.repeat(300)))}`)).status).toBe(400);
    expect((await upload(join(root, 'n'.repeat(300)), 'x')).status).toBe(400);
    expect((await fetch(`${server.url}/api/file/download${q('relative.txt')}`)).status).toBe(400);
    expect((await fetch(`${server.url}/api/file/download${q(join(root, 'missing.txt'))}`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/file/download${q(`${root}/${'d/'.repeat(2100)}`)}`)).status).toBe(422);
  });
});

describe('large files', () => {
  it('streams a sparse file over 2 GiB without holding it in memory', async () => {
    const size = 2 * 1024 * 1024 * 1024 + 5;
    const path = join(root, 'sparse.bin');
    const handle = await open(path, 'w');
    await handle.truncate(size);
    await handle.close();
    const before = process.memoryUsage().rss;
    let peak = before;
    const response = await fetch(`${server.url}/api/file/download${q(path)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(size));
    let received = 0;
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      received += chunk.value.length;
      if (received % (64 * 1024 * 1024) < chunk.value.length) peak = Math.max(peak, process.memoryUsage().rss);
    }
    expect(received).toBe(size);
    // Server and client share this process: a file read whole would add 2 GiB.
    expect(peak - before).toBeLessThan(512 * 1024 * 1024);
  }, 300_000);

  it('refuses an upload over the limit with a 413 and leaves nothing behind', async () => {
    const target = join(root, 'limited', 'big.bin');
    await mkdir(join(root, 'limited'));
    expect((await upload(target, new Uint8Array(uploadLimit + 1))).status).toBe(413);
    expect(await chunkedUpload(target, uploadLimit * 4)).toBe(413);
    expect(await readdir(join(root, 'limited'))).toEqual([]);
    expect((await upload(target, new Uint8Array(uploadLimit))).status).toBe(200);
    expect(await readdir(join(root, 'limited'))).toEqual(['big.bin']);
  });

  it('answers a malformed multipart body with a 400 and one without a file with a 422', async () => {
    const target = join(root, 'malformed.bin');
    const truncated = await fetch(`${server.url}/api/file/upload${q(target)}`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      body: '--b\r\nContent-Disposition: form-data; name="file"; filename="f"\r\n\r\nno end',
    });
    expect(truncated.status).toBe(400);
    const form = new FormData();
    form.append('other', 'text');
    const noFile = await fetch(`${server.url}/api/file/upload${q(target)}`, { method: 'POST', body: form });
    expect(noFile.status).toBe(422);
    const notMultipart = await fetch(`${server.url}/api/file/upload${q(target)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(notMultipart.status).toBe(422);
  });
});

describe('working directories', () => {
  const create = (working_dir: string) =>
    server.call('POST', '/api/conversations', { ...createRequest(server.llm), workspace: { working_dir } });

  it('refuses any working_dir outside the workspace root, however it is spelled, naming the field', async () => {
    await symlink(outside, join(root, 'link-out'));
    for (const dir of [
      '/',
      '/tmp',
      outside,
      `${root}/..`,
      `${root}/../workspaces-evil`,
      '../..',
      `${root}/link-out`,
      `${root}/link-out/sub`,
    ]) {
      const { status, json } = await create(dir);
      expect(status, dir).toBe(422);
      expect(JSON.stringify(json), dir).toContain('working_dir');
    }
    expect(await readdir(outside)).toEqual([]);
    await writeFile(join(root, 'a-file'), 'x');
    for (const dir of [join(root, 'a-file', 'sub'), join(root, 'a-file'), join(root, 'n'.repeat(300))]) {
      const { status, json } = await create(dir);
      expect(status, dir).toBe(422);
      expect(JSON.stringify(json), dir).toContain('working_dir');
    }
    const cwd = await server.call('POST', '/api/bash/execute_bash_command', {
      command: 'true',
      cwd: join(root, 'n'.repeat(300)),
    });
    expect(cwd.status).toBe(400);
  });

  it('accepts one inside the root (absolute, or relative to the conversation) and creates it', async () => {
    const inside = await create(join(root, 'projects', 'one'));
    expect(inside.status).toBe(201);
    expect((inside.json as { workspace: { working_dir: string } }).workspace.working_dir).toBe(
      join(root, 'projects', 'one'),
    );
    const relative = await create('.');
    expect(relative.status).toBe(201);
    const { id, workspace } = relative.json as { id: string; workspace: { working_dir: string } };
    expect(workspace.working_dir).toBe(join(root, id.replaceAll('-', '')));
  });
});
