import { actionDecisionSchema, decisionRecordSchema, PrincipalNotAllowedError, readDecision } from '@x/agent';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ConversationManager } from '../conversations/conversation-manager.js';
import { principalOfKey } from '../security/request-caller.js';
import { answersAwaitRun } from './decision-retry.js';
import { conversationParamsSchema } from './request-schemas.js';
import { CONVERSATION_ERRORS, errorResponses } from './response-schemas.js';

/** How long the run a decision starts waits for a lease held by a concurrent decider. */
const RUN_LEASE_WAIT_MS = 15_000;

const decisionsBodySchema = z.strictObject({
  /** One decision per pending action: approve (optionally with edited `arguments`), deny with a reason, substitute. */
  decisions: z.array(actionDecisionSchema).min(1),
  /** Start the run once no pending action is left undecided (default true), as `respond_to_confirmation` does. */
  run: z.boolean().optional(),
});

const decisionsResponseSchema = z
  .object({
    decisions: z.array(z.looseObject({ action_id: z.string(), principal: z.string(), decided_at: z.string() })),
  })
  .describe('The decisions recorded (each with who decided and when)');

export interface DecisionRouteOptions {
  apiKeys: readonly string[];
  /** Principals allowed to decide (`api-key:<first 12 hex of the key's SHA-256>`, or `local` without keys); all when unset. */
  approvalDeciders?: readonly string[] | undefined;
}

/** The JSON value of a text, or undefined when it is none (a damaged record is left out, as an invalid one is). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The caller's principal, refused (403) when the server restricts who decides and it is not listed. */
export function decidingPrincipal(request: FastifyRequest, options: DecisionRouteOptions): string {
  const principal = principalOf(request, options.apiKeys);
  if (options.approvalDeciders !== undefined && !options.approvalDeciders.includes(principal)) {
    throw new PrincipalNotAllowedError(principal);
  }
  return principal;
}

/** Who a request decides as: its session key, named by a prefix of the key's hash (never the key itself). */
export function principalOf(request: FastifyRequest, apiKeys: readonly string[]): string {
  const header = request.headers['x-session-api-key'];
  return principalOfKey(apiKeys, Array.isArray(header) ? header[0] : header);
}

/**
 * `POST /api/conversations/{conversation_id}/decisions` (x's own route): decisions per pending action, recorded
 * once with who decided (the first decision for an action wins: a different one is 409, as is an action that is
 * not pending; arguments or a result the tool refuses are 422; a principal not in `approvalDeciders` is 403).
 */
export function registerDecisionRoutes(
  fastify: FastifyInstance,
  manager: ConversationManager,
  options: DecisionRouteOptions,
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/conversations/:conversation_id/decisions',
    {
      schema: {
        tags: ['events'],
        summary: 'Decide on pending actions one by one (approve, edit arguments, deny with a reason, substitute)',
        operationId: 'decidePendingActions',
        params: conversationParamsSchema,
        body: decisionsBodySchema,
        response: { 200: decisionsResponseSchema, ...errorResponses([...CONVERSATION_ERRORS, 403]) },
      },
    },
    async (request) => {
      const principal = decidingPrincipal(request, options);
      const managed = await manager.require(request.params.conversation_id);
      const conversation = await managed.open();
      const records = await conversation.decide(request.body.decisions, { principal });
      managed.publishFullState();
      // A retry of decisions already answered in the log (nothing recorded now) starts no run once a run began after
      // them, whatever the status: a finished or errored conversation would be run again, an idle one (a message
      // sent, a navigation since) or a paused one would run what nobody asked for. Answers no run has seen yet (the
      // first request died before its run began) still get theirs.
      const actionIds = request.body.decisions.map((decision) => decision.action_id);
      const answeredBefore = records.length === 0 && !(await answersAwaitRun(conversation, actionIds));
      if (request.body.run !== false && !answeredBefore) {
        const pending = await conversation.pendingActions();
        const decided = await Promise.all(
          pending.map((action) => readDecision(conversation.store, conversation.directory, action.id)),
        );
        // Another replica's decider may hold the lease for a moment (to learn it lost): wait for it.
        if (decided.every((record) => record !== undefined)) {
          await managed.acceptPendingActions({ leaseWaitMs: RUN_LEASE_WAIT_MS });
        }
      }
      return { decisions: records };
    },
  );

  app.get(
    '/api/conversations/:conversation_id/decisions',
    {
      schema: {
        tags: ['events'],
        summary: 'The recorded decisions on actions (who decided what, when)',
        operationId: 'listDecisions',
        params: conversationParamsSchema,
        response: {
          200: z
            .object({ decisions: z.array(decisionRecordSchema) })
            .describe('The decision records, by decision time'),
          ...errorResponses(CONVERSATION_ERRORS),
        },
      },
    },
    async (request) => {
      const conversation = await (await manager.require(request.params.conversation_id)).open();
      const dir = `${conversation.directory}/events/.decisions`;
      // A missing folder lists as []; any other failure is one, not an audit listing that says no one decided.
      const entries = await conversation.store.list(dir);
      const decisions = [];
      for (const entry of entries) {
        if (!entry.endsWith('.json')) continue;
        const parsed = decisionRecordSchema.safeParse(parseJson(await conversation.store.read(entry)));
        if (parsed.success) decisions.push(parsed.data);
        else request.log.warn({ record: conversation.store.describe(entry) }, 'a decision record does not parse');
      }
      decisions.sort((a, b) => a.decided_at.localeCompare(b.decided_at));
      return { decisions };
    },
  );
}
