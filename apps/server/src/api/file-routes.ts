import { Readable } from 'node:stream';
import { openRegularFile, openWorkspaceEntry, replaceFileAtomically, type WorkspaceEntry } from '@x/agent';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientText } from '../internal/client-text.js';
import { downloadHeaders } from '../internal/download-headers.js';
import { existingWorkspaceRoot } from '../workspace/existing-workspace-root.js';
import { fileSystemFailure } from '../workspace/file-system-failure.js';
import { multipartBoundary, receiveMultipartFile } from '../workspace/multipart-file.js';
import { UploadError } from '../workspace/upload-error.js';
import { WorkspaceGoneError } from '../workspace/workspace-gone-error.js';
import { filePathSchema } from './request-schemas.js';
import { errorResponses as documentedErrors, type ErrorStatus } from './response-schemas.js';
import { errorSchema, successSchema } from './tree-schemas.js';

export interface FileRoutesOptions {
  /** The server's workspace root: no file outside it is read or written. */
  workspaceRoot: string;
  /** Largest upload in bytes (413 above). */
  uploadLimit: number;
}

const pathQuerySchema = z.object({ path: filePathSchema.describe('Absolute path inside the workspace root') });
const errors = {
  ...documentedErrors(['400', '401', '404', '422', '500', '503'].map(Number) as ErrorStatus[]),
  403: errorSchema.describe('The path lies outside the workspace root, goes through a link, or has several hard links'),
  409: errorSchema.describe("The server's workspace root has been deleted (`code`: `workspace_gone`)"),
  413: errorSchema.describe('The file is larger than the upload limit'),
};

/**
 * What a failure on `path` answers: a workspace root deleted while the server runs is the server's failure (409
 * `workspace_gone`), not the path's, although every path under a missing root resolves outside it (403) or to a
 * missing directory (404); the root is never made again. The upload's own refusals (size, body) stand; a root that
 * cannot be looked at (EACCES) leaves the failure as it is.
 */
async function refusal(root: string, error: unknown, path: string): Promise<unknown> {
  if (UploadError.isInstance(error)) return error;
  const gone = await existingWorkspaceRoot(root).then(
    (real) => real === undefined,
    () => false,
  );
  return gone ? new WorkspaceGoneError(root) : fileSystemFailure(error, path);
}

/** Runs `use` with the path's verified parent directory, closed afterwards; file system failures become 4xx. */
async function withEntry<T>(
  root: string,
  path: string,
  create: boolean,
  use: (entry: WorkspaceEntry) => Promise<T>,
): Promise<T> {
  let entry: WorkspaceEntry;
  try {
    entry = await openWorkspaceEntry([root], path, { create });
  } catch (error) {
    throw await refusal(root, error, path);
  }
  try {
    return await use(entry);
  } catch (error) {
    throw await refusal(root, error, path);
  } finally {
    await entry.directory.close();
  }
}

/**
 * The reference's file routes that its `RemoteWorkspace` uses: `/api/file/upload` (multipart field `file`) and
 * `/api/file/download`. Both reach only regular files inside the workspace root: no symlink is followed out of it
 * (the parent directory is opened and verified, the file opened O_NOFOLLOW), a FIFO, socket or device is refused
 * before it is opened for I/O (the open is O_NONBLOCK, then the descriptor's type is checked), and a file with
 * several hard links is not read. An upload streams to a temporary file in the target's directory, renamed over
 * the target once complete: concurrent uploads leave one whole file, a hard link's other name is never written.
 * A download streams the file; nothing is held in memory whole. A workspace root deleted while the server runs is
 * a 409 (`workspace_gone`, as the shell routes) and is not made again by an upload.
 */
export function registerFileRoutes(fastify: FastifyInstance, options: FileRoutesOptions): void {
  fastify.register(async (scope) => {
    // The body stays a stream: the handler parses it as it arrives, straight to disk.
    scope.addContentTypeParser('multipart/form-data', (_request, payload, done) => done(null, payload));
    const app = scope.withTypeProvider<ZodTypeProvider>();

    app.post(
      '/api/file/upload',
      {
        schema: {
          tags: ['workspace'],
          operationId: 'uploadFile',
          summary: 'Upload a file (multipart field `file`) to an absolute path inside the workspace root',
          querystring: pathQuerySchema,
          response: { 200: successSchema, ...errors },
        },
      },
      async (request, reply) => {
        const boundary = multipartBoundary(request.headers['content-type'] ?? '');
        if (boundary === undefined || !(request.body instanceof Readable)) {
          throw new UploadError('Expected a multipart/form-data body (with a boundary) and a `file` field', 422);
        }
        const body = request.body;
        const declared = Number(request.headers['content-length']);
        if (Number.isFinite(declared) && declared > options.uploadLimit + 1024 * 1024) {
          // Say so before reading it; the connection is closed rather than the body drained.
          reply.header('connection', 'close');
          throw new UploadError(`The upload is larger than the limit of ${options.uploadLimit} bytes`, 413);
        }
        let bytes = 0;
        try {
          await withEntry(options.workspaceRoot, request.query.path, true, (entry) =>
            replaceFileAtomically(
              entry.directory,
              entry.name,
              async (handle) => {
                bytes = await receiveMultipartFile(body, {
                  boundary,
                  field: 'file',
                  limit: options.uploadLimit,
                  write: async (chunk) => {
                    for (let offset = 0; offset < chunk.length; ) {
                      offset += (await handle.write(chunk, offset)).bytesWritten;
                    }
                  },
                });
              },
              { exclusive: false, shown: clientText(request.query.path) },
            ),
          );
        } catch (error) {
          if (UploadError.isInstance(error) && error.statusCode === 413) reply.header('connection', 'close');
          throw error;
        }
        request.log.info({ path: request.query.path, bytes }, 'file uploaded');
        return { success: true };
      },
    );

    app.get(
      '/api/file/download',
      {
        schema: {
          tags: ['workspace'],
          operationId: 'downloadFile',
          summary: 'Download a file (application/octet-stream) from an absolute path inside the workspace root',
          querystring: pathQuerySchema,
          response: { 200: z.unknown().describe('The file bytes'), ...errors },
        },
      },
      async (request, reply) => {
        const { handle, size, name } = await withEntry(
          options.workspaceRoot,
          request.query.path,
          false,
          async (entry) => ({
            ...(await openRegularFile(entry.directory, entry.name, { shown: clientText(request.query.path) })),
            name: entry.name,
          }),
        );
        reply.type('application/octet-stream').header('content-length', size).headers(downloadHeaders(name));
        if (size === 0) {
          await handle.close();
          return reply.send(Buffer.alloc(0));
        }
        // Exactly the size checked: a file that grows meanwhile is not sent past it.
        return reply.send(handle.createReadStream({ start: 0, end: size - 1 }));
      },
    );
  });
}
