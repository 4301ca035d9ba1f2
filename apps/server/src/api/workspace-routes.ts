import { stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientText } from '../internal/client-text.js';
import { naiveUtcTimestamp } from '../internal/query-datetime.js';
import type { ServerSandboxing } from '../sandboxing/server-sandboxing.js';
import { BashCommands } from '../workspace/bash-commands.js';
import { BashEventNotFoundError } from '../workspace/bash-event-not-found-error.js';
import { confinePath } from '../workspace/confine-path.js';
import { assertWorkspaceRootExists } from '../workspace/existing-workspace-root.js';
import { WorkspacePathError } from '../workspace/workspace-path-error.js';
import { filePathSchema } from './request-schemas.js';
import { errorResponses as documentedErrors, type ErrorStatus } from './response-schemas.js';
import { errorSchema } from './tree-schemas.js';

export interface WorkspaceRoutesOptions {
  /** The server's workspace root: every conversation's working directory lies in it, and nothing outside is reached. */
  workspaceRoot: string;
  /** Where shell commands run (refused without a sandbox unless the server runs `--unsandboxed`). */
  sandboxing: ServerSandboxing;
}

const executeBashSchema = z.object({
  command: z.string().min(1),
  cwd: filePathSchema.nullish(),
  timeout: z.number().int().min(1).max(86_400).default(300),
});
/** A time bound on shell events, whose timestamps are naive UTC (the reference's `utc_now()`); see query-datetime.ts. */
function utcBound() {
  return z
    .string()
    .max(64)
    .transform((value, context) => {
      const bound = naiveUtcTimestamp(value);
      if (bound === undefined) context.addIssue({ code: 'custom', message: 'not an ISO 8601 datetime' });
      return bound ?? z.NEVER;
    });
}

const bashSearchSchema = z.object({
  kind__eq: z.enum(['BashCommand', 'BashOutput']).optional(),
  command_id__eq: z.uuid().optional(),
  timestamp__gte: utcBound().optional(),
  timestamp__lt: utcBound().optional(),
  order__gt: z.coerce.number().int().optional(),
  sort_order: z.enum(['TIMESTAMP', 'TIMESTAMP_DESC']).default('TIMESTAMP'),
  page_id: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(100),
});
const bashEventSchema = z
  .looseObject({ kind: z.enum(['BashCommand', 'BashOutput']), id: z.string() })
  .describe('A shell command or a piece of its output');
const errors = {
  ...documentedErrors(['400', '401', '404', '422', '500', '503'].map(Number) as ErrorStatus[]),
  403: errorSchema.describe('The path or working directory lies outside the workspace'),
  409: errorSchema.describe("The server's workspace root has been deleted (`code`: `workspace_gone`)"),
};

/**
 * The reference's shell routes that its `RemoteWorkspace` uses: `/api/bash/start_bash_command`,
 * `/api/bash/execute_bash_command` and `/api/bash/bash_events/search` (the file routes are in file-routes.ts). A
 * command's cwd must lie inside the server's workspace root, also once symlinks are followed.
 */
export function registerWorkspaceRoutes(fastify: FastifyInstance, options: WorkspaceRoutesOptions): void {
  const bash = new BashCommands(options.sandboxing);
  // Shutdown (`close()`, SIGTERM/SIGINT) ends every command started here, with all it started.
  fastify.addHook('onClose', async () => bash.closeAll());
  // Conversations' working directories all lie in the root (checked when they are created). The server makes it at
  // start-up; deleted since, it is not made again: an empty root would hide that every working directory has gone.
  const roots = async (): Promise<string[]> => {
    await assertWorkspaceRootExists(options.workspaceRoot);
    return [options.workspaceRoot];
  };
  const directory = async (requested: string | null | undefined): Promise<string> => {
    const path = await confinePath(requested ?? options.workspaceRoot, await roots());
    const info = await stat(path).catch((error: NodeJS.ErrnoException) => error);
    // A directory deleted since (a conversation's working directory) is missing, as the file routes say of it.
    if (info instanceof Error && info.code === 'ENOENT') {
      throw new WorkspacePathError(`cwd '${clientText(requested)}' does not exist`, 404);
    }
    if (info instanceof Error || !info.isDirectory()) {
      throw new WorkspacePathError(`cwd '${clientText(requested)}' is not a directory`, 400);
    }
    return path;
  };

  fastify.register(async (scope) => {
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
        const { command } = bash.start({
          command: request.body.command,
          timeout: request.body.timeout,
          cwd,
          roots: await roots(),
        });
        return command;
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
        const { command, done } = bash.start({
          command: request.body.command,
          timeout: request.body.timeout,
          cwd,
          roots: await roots(),
        });
        const result = await done;
        const { items } = bash.search({
          command_id__eq: command.id,
          kind__eq: 'BashOutput',
          sort_order: 'TIMESTAMP_DESC',
          limit: 1,
        });
        // The last BashOutput, with the whole (capped) output of the command rather than its last piece.
        return items[0] === undefined ? command : { ...items[0], stdout: result.stdout, stderr: result.stderr };
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

    app.get(
      '/api/bash/bash_events/:event_id',
      {
        schema: {
          tags: ['workspace'],
          operationId: 'getBashEvent',
          summary: 'One shell command or output by id (404 if this server keeps none)',
          params: z.object({ event_id: z.string().min(1).max(200) }),
          response: { 200: bashEventSchema, ...errors },
        },
      },
      async (request) => {
        const event = bash.get(request.params.event_id);
        if (event === undefined) throw new BashEventNotFoundError(request.params.event_id);
        return event;
      },
    );

    app.delete(
      '/api/bash/bash_events',
      {
        schema: {
          tags: ['workspace'],
          operationId: 'clearBashEvents',
          summary: 'Forget every shell command and output kept so far (running commands go on)',
          response: {
            200: z.object({ cleared_count: z.number().int() }).describe('How many events were forgotten'),
            ...errors,
          },
        },
      },
      async () => ({ cleared_count: bash.clear() }),
    );
  });
}
