import { eventToJson } from '@x/events';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ConversationManager } from '../conversations/conversation-manager.js';
import { EventNotFoundError } from '../conversations/errors/event-not-found-error.js';
import { countEvents, searchEvents } from '../events/event-search.js';
import {
  conversationParamsSchema,
  eventFilterQuerySchema,
  eventParamsSchema,
  eventSearchQuerySchema,
} from './request-schemas.js';
import {
  CONVERSATION_ERRORS,
  countSchema,
  type EventJson,
  errorResponses,
  eventJsonSchema,
  eventPageSchema,
} from './response-schemas.js';

const tags = ['events'];

/** §11.3 event routes under `/api/conversations/{conversation_id}/events`. */
export function registerEventRoutes(fastify: FastifyInstance, manager: ConversationManager): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/conversations/:conversation_id/events/search',
    {
      schema: {
        tags,
        summary: 'Search events (kind: class path or bare kind; source; body; timestamp bounds), paginated',
        operationId: 'searchEvents',
        params: conversationParamsSchema,
        querystring: eventSearchQuerySchema,
        response: { 200: eventPageSchema, ...errorResponses(CONVERSATION_ERRORS) },
      },
    },
    async (request) => {
      const conversation = await (await manager.require(request.params.conversation_id)).open();
      const page = await searchEvents(conversation.log, request.query, request.log);
      return { ...page, items: page.items as EventJson[] };
    },
  );

  app.get(
    '/api/conversations/:conversation_id/events/count',
    {
      schema: {
        tags,
        summary: 'Count events matching the filters',
        operationId: 'countEvents',
        params: conversationParamsSchema,
        querystring: eventFilterQuerySchema,
        response: { 200: countSchema, ...errorResponses(CONVERSATION_ERRORS) },
      },
    },
    async (request) => {
      const conversation = await (await manager.require(request.params.conversation_id)).open();
      return countEvents(conversation.log, request.query, request.log);
    },
  );

  app.get(
    '/api/conversations/:conversation_id/events/:event_id',
    {
      schema: {
        tags,
        summary: 'One event (404 if unknown)',
        operationId: 'getEvent',
        params: eventParamsSchema,
        response: { 200: eventJsonSchema, ...errorResponses(CONVERSATION_ERRORS) },
      },
    },
    async (request) => {
      const { conversation_id: conversationId, event_id: eventId } = request.params;
      const conversation = await (await manager.require(conversationId)).open();
      // indexOf needs no I/O, so an unknown (or hostile) id never reaches the store.
      const index = conversation.log.indexOf(eventId);
      if (index < 0) throw new EventNotFoundError(conversationId, eventId);
      try {
        return eventToJson(await conversation.log.get(index)) as EventJson;
      } catch (error) {
        request.log.warn({ err: error, eventId }, 'unreadable event');
        throw new EventNotFoundError(conversationId, eventId);
      }
    },
  );
}
