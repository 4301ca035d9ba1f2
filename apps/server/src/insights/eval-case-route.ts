import { join } from 'node:path';
import { caseFromConversation, evalCaseSchema, evalSuiteSchema } from '@x/agent';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { conversationParamsSchema } from '../api/request-schemas.js';
import { CONVERSATION_ERRORS, errorResponses } from '../api/response-schemas.js';
import type { ConversationManager } from '../conversations/conversation-manager.js';
import { InvalidRequestError } from '../conversations/errors/invalid-request-error.js';
import { conversationHex } from '../internal/conversation-ids.js';

const evalCaseRequestSchema = z
  .object({
    /** The case id (default `conversation-<first 8 hex digits>`). */
    id: evalCaseSchema.shape.id.optional(),
  })
  .default({});

const evalCaseResponseSchema = z
  .object({
    /** The case, its `conversation` the conversation's directory on the server's machine (absolute). */
    case: z.record(z.string(), z.unknown()),
    /** A one-case suite holding it: save it as `file_name` and run it with `x eval`, or copy the case into a suite. */
    suite: z.record(z.string(), z.unknown()),
    file_name: z.string(),
  })
  .describe('The eval case and a one-case suite holding it, to download');

/**
 * `POST /api/conversations/{id}/eval_case`: the eval case the conversation becomes (`x eval promote`'s), given
 * back for download. The server writes nothing: appending to a suite file would let an API client pick a path
 * to write under the data dir, and the viewer's user wants the case on their own machine anyway.
 * `conversationsDir` is where conversation directories live when they are local files (not S3 or PostgreSQL,
 * where there is no directory a suite could name).
 */
export function registerEvalCaseRoute(
  fastify: FastifyInstance,
  manager: ConversationManager,
  conversationsDir: string | undefined,
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/conversations/:conversation_id/eval_case',
    {
      schema: {
        tags: ['conversations'],
        operationId: 'promoteConversationToEvalCase',
        summary: 'The eval case this conversation becomes (as `x eval promote`), in a one-case suite to download',
        params: conversationParamsSchema,
        body: evalCaseRequestSchema,
        response: { 200: evalCaseResponseSchema, ...errorResponses(CONVERSATION_ERRORS) },
      },
    },
    async (request) => {
      const managed = await manager.require(request.params.conversation_id);
      const hex = conversationHex(managed.id) as string;
      if (conversationsDir === undefined) {
        throw new InvalidRequestError(
          `Conversation ${managed.id} is stored in S3 or PostgreSQL: an eval case names a conversation directory, ` +
            'so promote it where its files are local (`x eval promote` after exporting it).',
          { statusCode: 409 },
        );
      }
      if (managed.isRunning) {
        throw new InvalidRequestError(`Conversation ${managed.id} is running: promote it once its run is over.`, {
          statusCode: 409,
        });
      }
      // Opening it first makes sure its files are all written (a crash-interrupted run is recovered).
      await managed.open();
      const location = join(conversationsDir, hex);
      const evalCase = await caseFromConversation(location, {
        suiteDirectory: conversationsDir,
        id: request.body.id ?? undefined,
      });
      // Absolute: the downloaded suite is saved anywhere, so a path relative to it would not find the directory.
      const absolute = { ...evalCase, conversation: location };
      const suite = evalSuiteSchema.parse({ name: `promoted-${hex.slice(0, 8)}`, cases: [absolute] });
      return { case: absolute, suite, file_name: `${absolute.id}.eval.json` };
    },
  );
}
