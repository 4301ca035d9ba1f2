import { appendFile, readdir, readlink, realpath, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer, waitFor } from './helpers.js';
import { attachmentFileName } from './support/content-disposition.js';

/** `GET /api/file/download` as a browser and the reference's RemoteWorkspace see it: headers, sizes, side effects. */
let server: TestServer;
let root: string;

beforeAll(async () => {
  server = await startTestServer();
  root = await realpath(join(server.dataDir, 'workspaces'));
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

function download(path: string): Promise<Response> {
  return fetch(`${server.url}/api/file/download?path=${encodeURIComponent(path)}`);
}

async function descriptorsOn(path: string): Promise<number> {
  let count = 0;
  for (const fd of await readdir('/proc/self/fd')) {
    if ((await readlink(`/proc/self/fd/${fd}`).catch(() => '')) === path) count += 1;
  }
  return count;
}

describe('a downloaded workspace file', () => {
  it('is saved by a browser under its own name, whatever characters the name has', async () => {
    for (const name of ["rapport été (v2)'s *draft*.txt", 'plain.txt', 'a;b="c".md', '100% ~!#$&+^_`|.bin']) {
      await writeFile(join(root, name), 'x');
      const response = await download(join(root, name));
      expect(response.status).toBe(200);
      expect({ name, saved: attachmentFileName(response.headers.get('content-disposition')) }).toEqual({
        name,
        saved: name,
      });
      await response.arrayBuffer();
    }
  });

  // The workspace holds whatever the agent wrote: an HTML or SVG file served from this origin must stay inert.
  it('is a download that is never sniffed and never a document', async () => {
    await writeFile(join(root, 'page.html'), '<script>alert(1)</script>');
    const response = await download(join(root, 'page.html'));
    expect({
      type: response.headers.get('content-type'),
      length: response.headers.get('content-length'),
      nosniff: response.headers.get('x-content-type-options'),
      policy: response.headers.get('content-security-policy'),
      body: await response.text(),
    }).toEqual({
      type: 'application/octet-stream',
      length: '25',
      nosniff: 'nosniff',
      policy: "default-src 'none'; sandbox",
      body: '<script>alert(1)</script>',
    });
  });

  it('is sent whole at every small size, an empty one included, and its descriptor is closed', async () => {
    for (const bytes of [[], [7], [0, 255]]) {
      const path = join(root, `size-${bytes.length}.bin`);
      await writeFile(path, Buffer.from(bytes));
      const response = await download(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-length')).toBe(String(bytes.length));
      expect([...new Uint8Array(await response.arrayBuffer())]).toEqual(bytes);
      await waitFor(async () => (await descriptorsOn(path)) === 0);
    }
  });

  // The size is read once when the file is opened; the client holds the body back (backpressure) until the file has
  // grown, so the server reads the tail after the append.
  it('is sent as it was when opened, when it grows during the download', async () => {
    const path = join(root, 'growing.bin');
    const size = 64 * 1024 * 1024;
    await writeFile(path, Buffer.alloc(size, 1));
    const response = await download(path);
    expect(response.headers.get('content-length')).toBe(String(size));
    await appendFile(path, Buffer.alloc(1024, 2));
    const body = new Uint8Array(await response.arrayBuffer());
    expect({ length: body.length, twos: body.indexOf(2) }).toEqual({ length: size, twos: -1 });
  });

  it('under a missing directory is 404 and creates nothing', async () => {
    const response = await download(join(root, 'missing-dir', 'file.txt'));
    expect(response.status).toBe(404);
    await expect(stat(join(root, 'missing-dir'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
