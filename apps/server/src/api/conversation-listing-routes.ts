import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ConversationListing } from '../conversations/conversation-listing.js';
import type { ConversationManager } from '../conversations/conversation-manager.js';
import type { ManagedConversation } from '../conversations/managed-conversation.js';
import { conversationHex } from '../internal/conversation-ids.js';
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

/**
 * Listings never fail because of one conversation: a conversation that cannot be opened (damaged files,
 * deleted meanwhile) is left out of a search page and of batch get, with a warning naming it and the reason.
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

/** The listing routes of §11.2: search, count and batch get. */
export function registerConversationListingRoutes(
  fastify: FastifyInstance,
  manager: ConversationManager,
  /**
   * The index search and count read (the single server's in memory, or replicas' PostgreSQL table): only the
   * conversations of a page are opened.
   */
  listing: ConversationListing,
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
    async (request) => listing.count(request.query.status, request.query.q),
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
