import { constants } from 'node:fs';
import { mkdir, open, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ConversationManager } from '../conversations/conversation-manager.js';
import { InvalidRequestError } from '../conversations/errors/invalid-request-error.js';
import { BashCommands } from '../workspace/bash-commands.js';
import { confinePath } from '../workspace/confine-path.js';
import { WorkspacePathError } from '../workspace/workspace-path-error.js';
import { errorResponses as documentedErrors, type ErrorStatus } from './response-schemas.js';
import { errorSchema, successSchema } from './tree-schemas.js';

export interface WorkspaceRoutesOptions {
  /** The server's workspace root (default working directories live under it). */
  workspaceRoot: string;
  /** Its conversations' working directories are workspaces too. */
  manager: ConversationManager;
}

const executeBashSchema = z.object({
  command: z.string().min(1),
  cwd: z.string().min(1).nullish(),
  timeout: z.number().int().min(1).max(86_400).default(300),
});
const bashSearchSchema = z.object({
  kind__eq: z.enum(['BashCommand', 'BashOutput']).optional(),
  command_id__eq: z.uuid().optional(),
  order__gt: z.coerce.number().int().optional(),
  sort_order: z.enum(['TIMESTAMP', 'TIMESTAMP_DESC']).default('TIMESTAMP'),
  page_id: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(100),
});
const pathQuerySchema = z.object({ path: z.string().min(1) });
const bashEventSchema = z
  .looseObject({ kind: z.enum(['BashCommand', 'BashOutput']), id: z.string() })
  .describe('A shell command or a piece of its output');
const errors = {
  ...documentedErrors(['400', '401', '404', '422', '500', '503'].map(Number) as ErrorStatus[]),
  403: errorSchema.describe('The path or working directory lies outside the workspace'),
};

/**
 * The reference's workspace routes that its `RemoteWorkspace` uses: `/api/bash/start_bash_command`,
 * `/api/bash/execute_bash_command`, `/api/bash/bash_events/search`, `/api/file/upload` (multipart field
 * `file`) and `/api/file/download`. Paths (and a command's cwd) must lie inside the server's workspace root
 * or a conversation's working directory, also once symlinks are followed; files are opened with O_NOFOLLOW.
 */
export function registerWorkspaceRoutes(fastify: FastifyInstance, options: WorkspaceRoutesOptions): void {
  const bash = new BashCommands();
  // Shutdown (`close()`, SIGTERM/SIGINT) ends every command started here, with all it started.
  fastify.addHook('onClose', async () => bash.closeAll());
  const roots = async (): Promise<string[]> => {
    await mkdir(options.workspaceRoot, { recursive: true });
    const conversations = await options.manager.list();
    return [options.workspaceRoot, ...conversations.map((conversation) => conversation.meta.workspace.working_dir)];
  };
  const directory = async (requested: string | null | undefined): Promise<string> => {
    const path = await confinePath(requested ?? options.workspaceRoot, await roots());
    const info = await stat(path).catch(() => undefined);
    if (info?.isDirectory() !== true) throw new WorkspacePathError(`cwd '${requested}' is not a directory`, 400);
    return path;
  };

  fastify.register(async (scope) => {
    // Uploads arrive as multipart/form-data; parsed with the platform's FormData (bodyLimit applies).
    scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    const app = scope.withTypeProvider<ZodTypeProvider>();

    app.post(
      '/api/bash/start_bash_command',
      {
        schema: {
          tags: ['workspace'],
          operationId: 'startBashCommand',
          summary: 'Start a shell command in the background (minimal environment, confined cwd)',
          body: executeBashSchema,
          response: { 200: bashEventSchema, ...errors },
        },
      },
      async (request) => {
        const cwd = await directory(request.body.cwd);
        return bash.start({ command: request.body.command, cwd, timeout: request.body.timeout }).command;
      },
    );

    app.post(
      '/api/bash/execute_bash_command',
      {
        schema: {
          tags: ['workspace'],
          operationId: 'executeBashCommand',
          summary: 'Run a shell command and return its last output (with exit_code)',
          body: executeBashSchema,
          response: { 200: bashEventSchema, ...errors },
        },
      },
      async (request) => {
        const cwd = await directory(request.body.cwd);
        const { command, done } = bash.start({ command: request.body.command, cwd, timeout: request.body.timeout });
        await done;
        const { items } = bash.search({
          command_id__eq: command.id,
          kind__eq: 'BashOutput',
          sort_order: 'TIMESTAMP_DESC',
          limit: 1,
        });
        return items[0] ?? command;
      },
    );

    app.get(
      '/api/bash/bash_events/search',
      {
        schema: {
          tags: ['workspace'],
          operationId: 'searchBashEvents',
          summary: 'Search the commands and their outputs (poll with order__gt)',
          querystring: bashSearchSchema,
          response: {
            200: z
              .object({ items: z.array(bashEventSchema), next_page_id: z.string().nullable() })
              .describe('A page of shell commands and outputs'),
            ...errors,
          },
        },
      },
      async (request) => bash.search(request.query),
    );

    app.post(
      '/api/file/upload',
      {
        schema: {
          tags: ['workspace'],
          operationId: 'uploadFile',
          summary: 'Upload a file (multipart field `file`) to an absolute path inside a workspace',
          querystring: pathQuerySchema,
          response: { 200: successSchema, ...errors },
        },
      },
      async (request) => {
        const allowed = await roots();
        const target = await confinePath(request.query.path, allowed);
        const contentType = request.headers['content-type'] ?? '';
        if (!Buffer.isBuffer(request.body) || !contentType.startsWith('multipart/form-data')) {
          throw new InvalidRequestError('Expected a multipart/form-data body with a `file` field', { statusCode: 422 });
        }
        let file: ReturnType<FormData['get']>;
        try {
          const form = await new Request('http://upload.invalid/', {
            method: 'POST',
            headers: { 'content-type': contentType },
            body: request.body,
          }).formData();
          file = form.get('file');
        } catch (error) {
          throw new InvalidRequestError(`Malformed multipart body: ${(error as Error).message}`, { statusCode: 400 });
        }
        if (file === null || typeof file === 'string') {
          throw new InvalidRequestError('The multipart body has no `file` field with a file', { statusCode: 422 });
        }
        await mkdir(dirname(target), { recursive: true });
        // The parent may have been created just now: check it again, then never write through a link.
        await confinePath(dirname(target), allowed);
        const handle = await open(
          target,
          constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
          0o644,
        ).catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ELOOP') throw new WorkspacePathError(`Path '${request.query.path}' is a symlink`, 403);
          if (error.code === 'EISDIR') throw new WorkspacePathError(`Path '${request.query.path}' is a directory`, 400);
          throw error;
        });
        try {
          await handle.writeFile(Buffer.from(await file.arrayBuffer()));
        } finally {
          await handle.close();
        }
        request.log.info({ path: target, bytes: file.size }, 'file uploaded');
        return { success: true };
      },
    );

    app.get(
      '/api/file/download',
      {
        schema: {
          tags: ['workspace'],
          operationId: 'downloadFile',
          summary: 'Download a file (application/octet-stream) from an absolute path inside a workspace',
          querystring: pathQuerySchema,
          response: { 200: z.unknown().describe('The file bytes'), ...errors },
        },
      },
      async (request, reply) => {
        const target = await confinePath(request.query.path, await roots());
        const handle = await open(target, constants.O_RDONLY | constants.O_NOFOLLOW).catch(
          (error: NodeJS.ErrnoException) => {
            if (error.code === 'ENOENT') throw new WorkspacePathError('File not found', 404);
            if (error.code === 'ELOOP') throw new WorkspacePathError(`Path '${request.query.path}' is a symlink`, 403);
            throw error;
          },
        );
        try {
          if (!(await handle.stat()).isFile()) throw new WorkspacePathError('Path is not a file', 400);
          const bytes = await handle.readFile();
          return reply
            .type('application/octet-stream')
            .header('content-disposition', `attachment; filename="${encodeURIComponent(basename(target))}"`)
            .send(bytes);
        } finally {
          await handle.close();
        }
      },
    );
  });
}
