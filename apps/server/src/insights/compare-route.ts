import { compareConversations } from '@x/agent';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { conversationIdSchema } from '../api/request-schemas.js';
import { CONVERSATION_ERRORS, errorResponses } from '../api/response-schemas.js';
import type { ConversationManager } from '../conversations/conversation-manager.js';

const params = z.object({ conversation_id: conversationIdSchema, other_id: conversationIdSchema });
const comparisonSchema = z
  .looseObject({
    common_event_id: z.string().nullable(),
    common_events: z.number().int(),
    a: z.looseObject({}),
    b: z.looseObject({}),
    files_differing: z.array(z.string()).nullable(),
  })
  .describe('The two active branches after the events they share: actions, observations, cost, outcome, files');

/**
 * `GET /api/conversations/{id}/compare/{other_id}`: a counterfactual's branches side by side (`compareConversations`
 * of @x/agent, what `x compare` prints): the viewer's compare page reads it.
 */
export function registerCompareRoute(fastify: FastifyInstance, manager: ConversationManager): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/conversations/:conversation_id/compare/:other_id',
    {
      schema: {
        tags: ['conversations'],
        operationId: 'compareConversations',
        summary: 'Compare two conversations (a fork and its origin): their branches after the events they share',
        params,
        response: { 200: comparisonSchema, ...errorResponses(CONVERSATION_ERRORS) },
      },
    },
    async (request) => {
      const a = await (await manager.require(request.params.conversation_id)).open();
      const b = await (await manager.require(request.params.other_id)).open();
      const comparison = await compareConversations(a, b);
      // JSON has no undefined: absent figures are null.
      return JSON.parse(
        JSON.stringify(comparison, (_key, value: unknown) => (value === undefined ? null : value)),
      ) as z.infer<typeof comparisonSchema>;
    },
  );
}
