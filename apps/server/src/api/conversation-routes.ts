import type { ConfirmationPolicy } from '@x/agent';
import type { Message } from '@x/events';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ConversationListing } from '../conversations/conversation-listing.js';
import type { ConversationManager } from '../conversations/conversation-manager.js';
import { InvalidRequestError } from '../conversations/errors/invalid-request-error.js';
import type { ManagedConversation } from '../conversations/managed-conversation.js';
import { agentFinalResponse } from '../events/event-search.js';
import { conversationHex } from '../internal/conversation-ids.js';
import { filterByQuery } from './conversation-query.js';
import { type DecisionRouteOptions, decidingPrincipal } from './decision-routes.js';
import {
  askAgentSchema,
  batchGetQuerySchema,
  confirmationPolicyBodySchema,
  conversationCountQuerySchema,
  conversationParamsSchema,
  conversationSearchQuerySchema,
  generateTitleSchema,
  respondToConfirmationSchema,
  sendMessageRequestSchema,
  startConversationRequestSchema,
  updateConversationSchema,
} from './request-schemas.js';
import {
  API_ERRORS,
  CONVERSATION_ERRORS,
  type ConversationInfoJson,
  conversationBatchSchema,
  conversationInfoSchema,
  conversationPageSchema,
  countSchema,
  errorResponses,
  LLM_ERRORS,
  successSchema,
  textResponseSchema,
  titleSchema,
} from './response-schemas.js';

const SUCCESS = { success: true } as const;
const tags = ['conversations'];

/** The status a listing sees: the live one when open, else meta.json's hint (a stale `running` opens it). */
async function statusOf(conversation: ManagedConversation): Promise<string> {
  if (!conversation.isOpen && conversation.meta.execution_status === 'running') await conversation.open();
  if (conversation.isOpen) return (await conversation.open()).state.execution_status;
  return conversation.meta.execution_status;
}

async function info(conversation: ManagedConversation): Promise<ConversationInfoJson> {
  await conversation.open();
  // The shape is checked against conversationInfoSchema when the response is serialized.
  return conversation.fullState() as ConversationInfoJson;
}

/**
 * Listings never fail because of one conversation: a conversation that cannot be opened (damaged files,
 * deleted meanwhile) is left out of search, count and batch get, with a warning naming it and the reason.
 */
function skipped(log: FastifyBaseLogger, conversation: ManagedConversation, error: unknown): undefined {
  log.warn(
    { conversationId: conversation.id, reason: error instanceof Error ? error.message : String(error) },
    'conversation left out of the listing: it cannot be opened',
  );
  return undefined;
}

async function listedInfo(
  conversation: ManagedConversation,
  log: FastifyBaseLogger,
): Promise<ConversationInfoJson | undefined> {
  try {
    return await info(conversation);
  } catch (error) {
    return skipped(log, conversation, error);
  }
}

async function filterByStatus(
  all: ManagedConversation[],
  status: string | undefined,
  log: FastifyBaseLogger,
): Promise<ManagedConversation[]> {
  const statuses = await Promise.all(
    all.map(async (conversation) => {
      if (conversation.isDamaged) return undefined;
      if (status === undefined) return null;
      try {
        return await statusOf(conversation);
      } catch (error) {
        return skipped(log, conversation, error);
      }
    }),
  );
  return all.filter((_, index) => statuses[index] === null || (status !== undefined && statuses[index] === status));
}

/** §11.2 conversation routes under `/api/conversations`. */
export function registerConversationRoutes(
  fastify: FastifyInstance,
  manager: ConversationManager,
  /** Replicas: search and count with SQL; only the conversations of the page are opened. */
  listing?: ConversationListing,
  /** Who may decide on pending actions, and how a caller is named (see decision-routes.ts). */
  decisionOptions: DecisionRouteOptions = { apiKeys: [] },
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/conversations',
    {
      schema: {
        tags,
        summary: 'Start a conversation (201), or return the existing one with that id (200)',
        operationId: 'startConversation',
        body: startConversationRequestSchema,
        response: {
          200: conversationInfoSchema.describe('The existing conversation with that id'),
          201: conversationInfoSchema.describe('The new conversation'),
          ...errorResponses(LLM_ERRORS),
        },
      },
    },
    async (request, reply) => {
      const { conversation, created } = await manager.create(request.body);
      return reply.code(created ? 201 : 200).send(await info(conversation));
    },
  );

  app.get(
    '/api/conversations/search',
    {
      schema: {
        tags,
        summary: 'Search conversations, paginated',
        operationId: 'searchConversations',
        querystring: conversationSearchQuerySchema,
        response: { 200: conversationPageSchema, ...errorResponses(API_ERRORS) },
      },
    },
    async (request) => {
      const { page_id, limit, status, sort_order, q } = request.query;
      if (listing !== undefined) {
        const page = await listing.page({
          status,
          query: q,
          sortOrder: sort_order,
          startAt: page_id === undefined ? undefined : conversationHex(page_id),
          limit,
        });
        const conversations = await Promise.all(page.ids.map((hex) => manager.get(hex)));
        const items = await Promise.all(
          conversations.map((conversation) =>
            conversation === undefined || conversation.isDamaged ? undefined : listedInfo(conversation, request.log),
          ),
        );
        return { items: items.filter((item) => item !== undefined), next_page_id: page.next ?? null };
      }
      const skip = (conversation: ManagedConversation, error: unknown) => skipped(request.log, conversation, error);
      const matching = await filterByQuery(await filterByStatus(await manager.list(), status, request.log), q, skip);
      const field = sort_order.startsWith('UPDATED_AT') ? 'updated_at' : 'created_at';
      const descending = sort_order.endsWith('_DESC');
      matching.sort((a, b) => {
        const order = a.meta[field].localeCompare(b.meta[field]) || a.hex.localeCompare(b.hex);
        return descending ? -order : order;
      });
      const pageHex = page_id === undefined ? undefined : conversationHex(page_id);
      const found = pageHex === undefined ? -1 : matching.findIndex((conversation) => conversation.hex === pageHex);
      const start = Math.max(0, found);
      const page = matching.slice(start, start + limit);
      const next = matching[start + limit];
      const items = await Promise.all(page.map((conversation) => listedInfo(conversation, request.log)));
      return { items: items.filter((item) => item !== undefined), next_page_id: next?.hex ?? null };
    },
  );

  app.get(
    '/api/conversations/count',
    {
      schema: {
        tags,
        summary: 'Count conversations',
        operationId: 'countConversations',
        querystring: conversationCountQuerySchema,
        response: { 200: countSchema, ...errorResponses(API_ERRORS) },
      },
    },
    async (request) => {
      if (listing !== undefined) return listing.count(request.query.status, request.query.q);
      const skip = (conversation: ManagedConversation, error: unknown) => skipped(request.log, conversation, error);
      const byStatus = await filterByStatus(await manager.list(), request.query.status, request.log);
      return (await filterByQuery(byStatus, request.query.q, skip)).length;
    },
  );

  app.get(
    '/api/conversations',
    {
      schema: {
        tags,
        summary: 'Get conversations by id (null for unknown ones)',
        operationId: 'batchGetConversations',
        querystring: batchGetQuerySchema,
        response: { 200: conversationBatchSchema, ...errorResponses(API_ERRORS) },
      },
    },
    async (request) => {
      const ids = request.query.ids === undefined ? [] : [request.query.ids].flat();
      return Promise.all(
        ids.map(async (id) => {
          if (conversationHex(id) === undefined) return null;
          const conversation = await manager.get(id);
          return conversation === undefined ? null : ((await listedInfo(conversation, request.log)) ?? null);
        }),
      );
    },
  );

  app.get(
    '/api/conversations/:conversation_id',
    {
      schema: {
        tags,
        summary: 'Get a conversation (ConversationInfo)',
        operationId: 'getConversation',
        params: conversationParamsSchema,
        response: { 200: conversationInfoSchema, ...errorResponses(CONVERSATION_ERRORS) },
      },
    },
    async (request) => info(await manager.require(request.params.conversation_id)),
  );

  app.delete(
    '/api/conversations/:conversation_id',
    {
      schema: {
        tags,
        summary: 'Delete a conversation (400 if unknown, as the reference)',
        operationId: 'deleteConversation',
        params: conversationParamsSchema,
        response: { 200: successSchema, ...errorResponses(CONVERSATION_ERRORS) },
      },
    },
    async (request) => {
      const id = request.params.conversation_id;
      if (!(await manager.delete(id))) throw notFound400(id);
      return SUCCESS;
    },
  );

  app.patch(
    '/api/conversations/:conversation_id',
    {
      schema: {
        tags,
        summary: 'Update title and/or tags ({"success": false} if unknown)',
        operationId: 'updateConversation',
        params: conversationParamsSchema,
        body: updateConversationSchema,
        response: { 200: successSchema, ...errorResponses(CONVERSATION_ERRORS) },
      },
    },
    async (request) => {
      const conversation = await manager.get(request.params.conversation_id);
      if (conversation === undefined) return { success: false };
      const { title, tags: newTags } = request.body;
      conversation.meta = {
        ...conversation.meta,
        ...(title === undefined || title === null ? {} : { title }),
        ...(newTags === undefined || newTags === null ? {} : { tags: newTags }),
      };
      await conversation.saveMeta();
      conversation.publishFullState();
      return SUCCESS;
    },
  );

  app.get(
    '/api/conversations/:conversation_id/agent_final_response',
    {
      schema: {
        tags,
        summary: "The agent's final answer ('' if none)",
        operationId: 'getAgentFinalResponse',
        params: conversationParamsSchema,
        response: { 200: textResponseSchema, ...errorResponses(CONVERSATION_ERRORS) },
      },
    },
    async (request) => {
      const conversation = await (await manager.require(request.params.conversation_id)).open();
      return { response: await agentFinalResponse(conversation.log, request.log) };
    },
  );

  app.post(
    '/api/conversations/:conversation_id/events',
    {
      schema: {
        tags: ['events'],
        summary: 'Send a message (and optionally run)',
        operationId: 'sendMessage',
        params: conversationParamsSchema,
        body: sendMessageRequestSchema,
        response: { 200: successSchema, ...errorResponses(CONVERSATION_ERRORS) },
      },
    },
    async (request) => {
      const conversation = await manager.require(request.params.conversation_id);
      const { role, content, run } = request.body;
      const message: Message = { role, content, thinking_blocks: [] };
      await conversation.sendMessage(message, { run });
      return SUCCESS;
    },
  );

  app.post(
    '/api/conversations/:conversation_id/run',
    {
      schema: {
        tags,
        summary: 'Start a background run (409 when running)',
        operationId: 'runConversation',
        params: conversationParamsSchema,
        response: { 200: successSchema, ...errorResponses(CONVERSATION_ERRORS) },
      },
    },
    async (request) => {
      await (await manager.require(request.params.conversation_id)).startRun();
      return SUCCESS;
    },
  );

  const controls = {
    pause: { summary: 'Pause between steps, after the model call in flight (400 if unknown)', id: 'pauseConversation' },
    interrupt: {
      summary: 'Interrupt now: abort the model call and tools, record an InterruptEvent, pause (400 if unknown)',
      id: 'interruptConversation',
    },
  } as const;
  for (const action of ['pause', 'interrupt'] as const) {
    app.post(
      `/api/conversations/:conversation_id/${action}`,
      {
        schema: {
          tags,
          summary: controls[action].summary,
          operationId: controls[action].id,
          params: conversationParamsSchema,
          response: { 200: successSchema, ...errorResponses(CONVERSATION_ERRORS) },
        },
      },
      async (request) => {
        const id = request.params.conversation_id;
        const conversation = await manager.get(id);
        if (conversation === undefined) throw notFound400(id);
        await (action === 'pause' ? conversation.pause() : conversation.interrupt());
        return SUCCESS;
      },
    );
  }

  app.post(
    '/api/conversations/:conversation_id/confirmation_policy',
    {
      schema: {
        tags,
        summary: 'Set the confirmation policy',
        operationId: 'setConfirmationPolicy',
        params: conversationParamsSchema,
        body: confirmationPolicyBodySchema,
        response: { 200: successSchema, ...errorResponses(CONVERSATION_ERRORS) },
      },
    },
    async (request) => {
      const conversation = await manager.require(request.params.conversation_id);
      await (await conversation.open()).setConfirmationPolicy(request.body.policy as ConfirmationPolicy);
      conversation.publishFullState();
      return SUCCESS;
    },
  );

  app.post(
    '/api/conversations/:conversation_id/events/respond_to_confirmation',
    {
      schema: {
        tags: ['events'],
        summary: 'Accept (run) or reject the pending actions',
        operationId: 'respondToConfirmation',
        params: conversationParamsSchema,
        body: respondToConfirmationSchema,
        response: { 200: successSchema, ...errorResponses(CONVERSATION_ERRORS) },
      },
    },
    async (request) => {
      const principal = decidingPrincipal(request, decisionOptions);
      const conversation = await manager.require(request.params.conversation_id);
      if (request.body.accept) {
        // Already running (here or in another replica) = nothing to do (the reference's no-op success).
        await conversation.acceptPendingActions();
      } else {
        await (await conversation.open()).rejectPendingActions(request.body.reason, { principal });
        conversation.publishFullState();
      }
      return SUCCESS;
    },
  );

  app.post(
    '/api/conversations/:conversation_id/condense',
    {
      schema: {
        tags,
        summary: 'Force a condensation (one agent step)',
        operationId: 'condenseConversation',
        params: conversationParamsSchema,
        response: { 200: successSchema, ...errorResponses(LLM_ERRORS) },
      },
    },
    async (request) => {
      const conversation = await manager.require(request.params.conversation_id);
      if (conversation.isRunning)
        throw new InvalidRequestError('Conversation is running: pause it or wait before condensing', {
          statusCode: 409,
        });
      await (await conversation.open()).condense();
      conversation.publishFullState();
      return SUCCESS;
    },
  );

  app.post(
    '/api/conversations/:conversation_id/ask_agent',
    {
      schema: {
        tags,
        summary: 'Ask a side question (nothing is recorded)',
        operationId: 'askAgent',
        params: conversationParamsSchema,
        body: askAgentSchema,
        response: { 200: textResponseSchema, ...errorResponses(LLM_ERRORS) },
      },
    },
    async (request) => {
      const conversation = await (await manager.require(request.params.conversation_id)).open();
      return { response: await conversation.askAgent(request.body.question) };
    },
  );

  app.post(
    '/api/conversations/:conversation_id/generate_title',
    {
      schema: {
        tags,
        summary: 'Generate, record and return a title from the first user message (extension)',
        operationId: 'generateTitle',
        params: conversationParamsSchema,
        body: generateTitleSchema,
        response: { 200: titleSchema, ...errorResponses(LLM_ERRORS) },
      },
    },
    async (request) => {
      const managed = await manager.require(request.params.conversation_id);
      const conversation = await managed.open();
      const title = await conversation.generateTitle({ maxLength: request.body?.max_length ?? 50 });
      managed.meta = { ...managed.meta, title };
      await managed.saveMeta();
      managed.publishFullState();
      return { title };
    },
  );
}

function notFound400(id: string): InvalidRequestError {
  return new InvalidRequestError(`Conversation not found: ${id}`, { statusCode: 400 });
}
