import { readFile, realpath } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer } from './helpers.js';

// The upload route's size limit as a client meets it: a body declared too large is refused before it is sent, a
// 413 closes the connection (the rest of the body is never read), and other fields may add up to 1 MiB.
let server: TestServer;
let root: string;
const uploadLimit = 32 * 1024;
/** What other fields and the framing may add to the file's limit. */
const allowance = uploadLimit + 1024 * 1024;
const boundary = 'limits-boundary-7';

beforeAll(async () => {
  server = await startTestServer({ config: { uploadLimit } });
  root = await realpath(join(server.dataDir, 'workspaces'));
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
}

/**
 * Sends the request's headers and as much of `body` as given, and resolves with the answer as soon as it arrives
 * (a body shorter than `declared` is never finished: only a server that answers early answers at all).
 */
function post(path: string, options: { declared?: number; chunked?: boolean; body: Buffer }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${server.url}/api/file/upload?path=${encodeURIComponent(path)}`, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        ...(options.declared === undefined ? {} : { 'content-length': String(options.declared) }),
        ...(options.chunked === true ? { 'transfer-encoding': 'chunked' } : {}),
      },
    });
    request.on('response', (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0, headers: response.headers });
      request.destroy();
    });
    request.on('error', (error) => {
      // Closing the connection after an early answer may reset the rest of the upload; the answer came first.
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET' && error.message !== 'socket hang up') reject(error);
    });
    request.write(options.body);
    if (options.declared === undefined || options.body.length === options.declared) request.end();
  });
}

/** A form whose `file` holds `file`, padded by a `note` field to `total` bytes when given. */
function form(file: Buffer, total?: number): Buffer {
  const part = (headers: string, content: Buffer) =>
    Buffer.concat([Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`), content, Buffer.from('\r\n')]);
  const filePart = part('Content-Disposition: form-data; name="file"; filename="f.bin"', file);
  const end = Buffer.from(`--${boundary}--\r\n`);
  const noteHeaders = 'Content-Disposition: form-data; name="note"';
  const unpadded = Buffer.concat([part(noteHeaders, Buffer.alloc(0)), filePart, end]);
  const padding = total === undefined ? 0 : total - unpadded.length;
  return Buffer.concat([part(noteHeaders, Buffer.alloc(padding, 'n')), filePart, end]);
}

describe('the upload limit', () => {
  it('refuses a body declared more than 1 MiB over the limit before it is sent, closing the connection', async () => {
    const path = join(root, 'declared.bin');
    const answer = await post(path, { declared: allowance + 1, body: Buffer.from(`--${boundary}\r\n`) });
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    await expect(readFile(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('accepts a body of exactly the limit plus 1 MiB, the file within the limit', async () => {
    const path = join(root, 'at-allowance.bin');
    const file = Buffer.alloc(uploadLimit, 'f');
    const body = form(file, allowance);
    expect(body.length).toBe(allowance);
    expect((await post(path, { declared: body.length, body })).status).toBe(200);
    expect(await readFile(path)).toEqual(file);
  });

  it('closes the connection after a 413 found while streaming, and keeps it open after a 422', async () => {
    const over = await post(join(root, 'streamed.bin'), {
      chunked: true,
      body: form(Buffer.alloc(uploadLimit + 1, 'f')),
    });
    expect(over).toMatchObject({ status: 413, headers: { connection: 'close' } });
    const noFile = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nx\r\n--${boundary}--\r\n`,
    );
    const unprocessable = await post(join(root, 'no-file.bin'), { declared: noFile.length, body: noFile });
    expect(unprocessable.status).toBe(422);
    expect(unprocessable.headers.connection).not.toBe('close');
  });

  it('refuses a multipart body without a boundary with a 422 before reading it', async () => {
    const response = await fetch(`${server.url}/api/file/upload?path=${encodeURIComponent(join(root, 'nb.bin'))}`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data' },
      body: form(Buffer.from('data')),
    });
    expect(response.status).toBe(422);
    expect(await response.text()).toContain('boundary');
  });
});
