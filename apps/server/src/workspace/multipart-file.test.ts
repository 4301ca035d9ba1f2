import { describe, expect, it } from 'vitest';
import { multipartBoundary, receiveMultipartFile } from './multipart-file.js';
import { UploadError } from './upload-error.js';

const boundary = 'XyZ--boundary--42';

function body(parts: { headers: string; content: string }[], epilogue = ''): Buffer {
  const text =
    parts.map((part) => `--${boundary}\r\n${part.headers}\r\n\r\n${part.content}\r\n`).join('') +
    `--${boundary}--\r\n${epilogue}`;
  return Buffer.from(text, 'latin1');
}

async function receive(chunks: Buffer[], limit = 1024): Promise<{ size: number; file: string }> {
  const received: Buffer[] = [];
  const size = await receiveMultipartFile(
    (async function* () {
      yield* chunks;
    })(),
    { boundary, field: 'file', limit, write: async (chunk) => void received.push(Buffer.from(chunk)) },
  );
  return { size, file: Buffer.concat(received).toString('latin1') };
}

const content = `line one\r\n--${boundary.slice(0, 6)} not a delimiter\r\n\r\n--\r\nend`;
const form = body([
  { headers: 'Content-Disposition: form-data; name="note"', content: 'a text field' },
  { headers: 'Content-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: x/y', content },
  { headers: 'Content-Disposition: form-data; name="file"; filename="second.bin"', content: 'ignored' },
]);

describe('receiveMultipartFile', () => {
  it('streams the first file of the field, whatever the chunk boundaries', async () => {
    for (let split = 1; split < form.length; split += 1) {
      const result = await receive([form.subarray(0, split), form.subarray(split)]);
      expect(result, `split at ${split}`).toEqual({ size: content.length, file: content });
    }
    const bytewise = [...form].map((byte) => Buffer.from([byte]));
    expect(await receive(bytewise)).toEqual({ size: content.length, file: content });
  });

  it('refuses a file over the limit (413), a body without the field (422) and a truncated body (400)', async () => {
    await expect(receive([form], 10)).rejects.toMatchObject({ statusCode: 413 });
    const noFile = body([{ headers: 'Content-Disposition: form-data; name="file"', content: 'no filename' }]);
    await expect(receive([noFile])).rejects.toMatchObject({ statusCode: 422 });
    await expect(receive([form.subarray(0, form.length - 10)])).rejects.toMatchObject({ statusCode: 400 });
    await expect(receive([Buffer.from('not multipart at all')])).rejects.toBeInstanceOf(UploadError);
  });

  it('accepts a body whose closing delimiter ends it without a line break', async () => {
    const text = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc\r\n--${boundary}--`;
    expect(await receive([Buffer.from(text, 'latin1')])).toEqual({ size: 3, file: 'abc' });
  });

  it('refuses a body more than 1 MiB over the limit (413) even when the extra bytes are other fields', async () => {
    const limit = 1024;
    const framing = body([{ headers: 'Content-Disposition: form-data; name="note"', content: '' }]);
    const padded = (size: number) =>
      body([{ headers: 'Content-Disposition: form-data; name="note"', content: 'x'.repeat(size - framing.length) }]);
    const atAllowance = padded(limit + 1024 * 1024);
    // The largest body allowed gets through to the check of its field (here: no file, a 422).
    await expect(receive([atAllowance], limit)).rejects.toMatchObject({ statusCode: 422 });
    const overAllowance = padded(limit + 1024 * 1024 + 1);
    await expect(receive([overAllowance], limit)).rejects.toMatchObject({
      statusCode: 413,
      message: expect.stringContaining('upload is larger'),
    });
    // Counted across chunks, not per chunk.
    const halves = [overAllowance.subarray(0, 600_000), overAllowance.subarray(600_000)];
    await expect(receive(halves, limit)).rejects.toMatchObject({ statusCode: 413 });
  });

  it('reads the boundary of a multipart/form-data content type only', () => {
    expect(multipartBoundary(`multipart/form-data; boundary=${boundary}`)).toBe(boundary);
    expect(multipartBoundary('multipart/form-data; boundary="quoted b"')).toBe('quoted b');
    expect(multipartBoundary('multipart/form-data')).toBeUndefined();
    expect(multipartBoundary('application/json; boundary=x')).toBeUndefined();
  });
});
