import type { BudgetStatus } from '@x/agent';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ConversationManager } from '../conversations/conversation-manager.js';
import { conversationParamsSchema, setBudgetBodySchema } from './request-schemas.js';
import { CONVERSATION_ERRORS, errorResponses } from './response-schemas.js';

const tags = ['conversations'];

/** x only: where a conversation stands against its money budget (the figures of `x_budget.json` and the log). */
export const budgetStatusSchema = z
  .object({
    max_usd: z.number().nullable(),
    allow_unknown_cost: z.boolean(),
    spent_usd: z.number(),
    unknown_cost: z.object({ usage_ids: z.array(z.string()), responses: z.array(z.string()) }),
    last_stop: z.record(z.string(), z.unknown()).nullable(),
  })
  .describe('Budget');

function budgetJson(status: BudgetStatus): z.infer<typeof budgetStatusSchema> {
  return {
    max_usd: status.budget?.maxUsd ?? null,
    allow_unknown_cost: status.budget?.allowUnknownCost ?? false,
    spent_usd: status.spentUsd,
    unknown_cost: { usage_ids: status.unknownCost.usageIds, responses: status.unknownCost.responses },
    last_stop: status.lastStop,
  };
}

/**
 * x only: `GET /api/conversations/{id}/budget` (the budget, the spend from the log, the last budget stop) and
 * `POST` to set it (`max_usd: null` removes it), optionally starting a run: a run stopped on its budget continues
 * once it is raised, and a run in progress goes on under the new budget.
 */
export function registerBudgetRoutes(app: FastifyInstance, manager: ConversationManager): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/conversations/:conversation_id/budget',
    {
      schema: {
        tags,
        summary: 'The money budget, the spend and the last budget stop (x only)',
        operationId: 'getBudget',
        params: conversationParamsSchema,
        response: { 200: budgetStatusSchema, ...errorResponses(CONVERSATION_ERRORS) },
      },
    },
    async (request) => {
      const conversation = await manager.require(request.params.conversation_id);
      return budgetJson(await (await conversation.open()).budgetStatus());
    },
  );

  api.post(
    '/api/conversations/:conversation_id/budget',
    {
      schema: {
        tags,
        summary: 'Set (or remove) the money budget, and optionally run (x only)',
        operationId: 'setBudget',
        params: conversationParamsSchema,
        body: setBudgetBodySchema,
        response: { 200: budgetStatusSchema, ...errorResponses([...CONVERSATION_ERRORS, 403]) },
      },
    },
    async (request) => {
      const managed = await manager.require(request.params.conversation_id);
      const conversation = await managed.open();
      const { max_usd: maxUsd, allow_unknown_cost: allowUnknownCost, run } = request.body;
      // Refused (403) before recording: a caller who may not run changes nothing, and a retry does not record twice.
      if (run) await managed.assertMayRun();
      await conversation.setBudget(maxUsd === null ? null : { maxUsd, allowUnknownCost });
      const status = budgetJson(await conversation.budgetStatus());
      // A run in progress reads the budget before its next model call, so it goes on under the new one (no 409).
      if (run) await managed.runAfterChange();
      return status;
    },
  );
}
