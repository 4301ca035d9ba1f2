import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ConversationListing } from '../conversations/conversation-listing.js';
import type { ConversationManager } from '../conversations/conversation-manager.js';
import type { ManagedConversation } from '../conversations/managed-conversation.js';
import { conversationHex } from '../internal/conversation-ids.js';
import { filterByQuery } from './conversation-query.js';
import { conversationInfoJson as info, CONVERSATION_TAGS as tags } from './conversation-route-shared.js';
import { batchGetQuerySchema, conversationCountQuerySchema, conversationSearchQuerySchema } from './request-schemas.js';
import {
  API_ERRORS,
  type ConversationInfoJson,
  conversationBatchSchema,
  conversationPageSchema,
  countSchema,
  errorResponses,
} from './response-schemas.js';

/** The status a listing sees: the live one when open, else meta.json's hint (a stale `running` opens it). */
async function statusOf(conversation: ManagedConversation): Promise<string> {
  if (!conversation.isOpen && conversation.meta.execution_status === 'running') await conversation.open();
  if (conversation.isOpen) return (await conversation.open()).state.execution_status;
  return conversation.meta.execution_status;
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

/** The listing routes of §11.2: search, count and batch get. */
export function registerConversationListingRoutes(
  fastify: FastifyInstance,
  manager: ConversationManager,
  /** Replicas: search and count with SQL; only the conversations of the page are opened. */
  listing: ConversationListing | undefined,
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

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
}
