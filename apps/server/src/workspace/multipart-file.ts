import { UploadError } from './upload-error.js';

export interface MultipartFileOptions {
  /** The `boundary` parameter of the request's content type. */
  boundary: string;
  /** The form field whose file is kept (the first such part with a filename); other parts are skipped. */
  field: string;
  /** Largest file accepted, in bytes: one more and the upload fails with a 413. */
  limit: number;
  /** Receives the file's bytes in order; awaited before more of the body is read (backpressure). */
  write(chunk: Buffer): Promise<void>;
}

/** Headers of one part are small; a larger block is not a form a client sends. */
const maxHeaderBytes = 16 * 1024;
/** Other fields than the file (and the multipart framing) may add this much to the limit before a 413. */
const overheadBytes = 1024 * 1024;

/** The `boundary` of a multipart/form-data content type, or undefined. */
export function multipartBoundary(contentType: string): string | undefined {
  if (!/^multipart\/form-data\s*(;|$)/i.test(contentType)) return undefined;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^";\s]{1,70}))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

function partField(headers: string): { name: string | undefined; isFile: boolean } {
  const disposition = headers
    .split('\r\n')
    .find((line) => /^content-disposition\s*:/i.test(line))
    ?.replace(/^content-disposition\s*:/i, '');
  if (disposition === undefined) return { name: undefined, isFile: false };
  const name = /(?:^|;)\s*name=(?:"([^"]*)"|([^;\s]+))/i.exec(disposition);
  return { name: name?.[1] ?? name?.[2], isFile: /(?:^|;)\s*filename\*?=/i.test(disposition) };
}

/**
 * Streams the file of a multipart/form-data body to `write` without holding the body in memory: the body is scanned
 * for the boundary as it arrives, only a delimiter's length is kept back between chunks. Resolves with the file's
 * size once the closing delimiter was read; a body without the field's file part is a 422, a truncated or malformed
 * one a 400, a file over `limit` (or a body far over it) a 413, thrown as soon as it is known.
 */
export async function receiveMultipartFile(
  body: AsyncIterable<Uint8Array>,
  options: MultipartFileOptions,
): Promise<number> {
  const delimiter = Buffer.from(`\r\n--${options.boundary}`);
  // The first delimiter may open the body without a line break before it.
  let pending: Buffer = Buffer.from('\r\n');
  // Asserted, not annotated: `advance` changes it, which the compiler's narrowing here would not see.
  let state = 'preamble' as 'preamble' | 'after-delimiter' | 'headers' | 'part' | 'done';
  let inFile = false;
  let fileBytes: number | undefined;
  let total = 0;

  const emit = async (chunk: Buffer): Promise<void> => {
    if (!inFile || chunk.length === 0) return;
    fileBytes = (fileBytes ?? 0) + chunk.length;
    if (fileBytes > options.limit) {
      throw new UploadError(`The uploaded file is larger than the limit of ${options.limit} bytes`, 413);
    }
    await options.write(chunk);
  };

  const advance = async (): Promise<boolean> => {
    switch (state) {
      case 'preamble':
      case 'part': {
        const at = pending.indexOf(delimiter);
        if (at === -1) {
          const safe = pending.length - (delimiter.length - 1);
          if (safe > 0) {
            if (state === 'part') await emit(pending.subarray(0, safe));
            pending = pending.subarray(safe);
          }
          return false;
        }
        if (state === 'part') {
          await emit(pending.subarray(0, at));
          if (inFile) inFile = false;
        }
        pending = pending.subarray(at + delimiter.length);
        state = 'after-delimiter';
        return true;
      }
      case 'after-delimiter': {
        if (pending.length < 2) return false;
        if (pending[0] === 0x2d && pending[1] === 0x2d) {
          state = 'done';
          return false;
        }
        const lineEnd = pending.indexOf('\r\n');
        if (lineEnd === -1) {
          if (pending.length > 1024) throw new UploadError('Malformed multipart body: bad delimiter line', 400);
          return false;
        }
        // Transport padding (spaces, tabs) may follow a delimiter before its line break.
        if (pending.subarray(0, lineEnd).toString('latin1').trim() !== '') {
          throw new UploadError('Malformed multipart body: bad delimiter line', 400);
        }
        pending = pending.subarray(lineEnd + 2);
        state = 'headers';
        return true;
      }
      case 'headers': {
        const end = pending.indexOf('\r\n\r\n');
        if (end === -1) {
          if (pending.length > maxHeaderBytes)
            throw new UploadError('Malformed multipart body: part headers too long', 400);
          return false;
        }
        const field = partField(pending.subarray(0, end).toString('utf8'));
        inFile = fileBytes === undefined && field.isFile && field.name === options.field;
        if (inFile) fileBytes = 0;
        pending = pending.subarray(end + 4);
        state = 'part';
        return true;
      }
      case 'done':
        return false;
    }
  };

  for await (const chunk of body) {
    total += chunk.length;
    if (total > options.limit + overheadBytes) {
      throw new UploadError(`The upload is larger than the limit of ${options.limit} bytes`, 413);
    }
    if (state === 'done') continue;
    pending = pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([pending, chunk]);
    while (await advance()) {
      // Each step consumes a delimiter, a delimiter line or a header block.
    }
  }
  if (state !== 'done') throw new UploadError('Malformed multipart body: it ends before its closing boundary', 400);
  if (fileBytes === undefined) {
    throw new UploadError(`The multipart body has no \`${options.field}\` field with a file`, 422);
  }
  return fileBytes;
}
