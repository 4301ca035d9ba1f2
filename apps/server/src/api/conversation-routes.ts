import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ConversationListing } from '../conversations/conversation-listing.js';
import type { ConversationManager } from '../conversations/conversation-manager.js';
import { agentFinalResponse } from '../events/event-search.js';
import { registerConversationAgentRoutes } from './conversation-agent-routes.js';
import { registerConversationControlRoutes } from './conversation-control-routes.js';
import { registerConversationListingRoutes } from './conversation-listing-routes.js';
import {
  conversationInfoJson as info,
  notFound400,
  SUCCESS,
  CONVERSATION_TAGS as tags,
} from './conversation-route-shared.js';
import type { DecisionRouteOptions } from './decision-routes.js';
import {
  conversationParamsSchema,
  startConversationRequestSchema,
  updateConversationSchema,
} from './request-schemas.js';
import {
  CONVERSATION_ERRORS,
  conversationInfoSchema,
  errorResponses,
  LLM_ERRORS,
  successSchema,
  textResponseSchema,
} from './response-schemas.js';

/**
 * §11.2 conversation routes under `/api/conversations`: create, get, delete, update and the final response here;
 * the listing, control and model-calling routes live in files of their own and are registered from here, so
 * the OpenAPI document lists the routes in the same order as before.
 */
export function registerConversationRoutes(
  fastify: FastifyInstance,
  manager: ConversationManager,
  /** The index search and count read (in memory, or replicas' PostgreSQL table). */
  listing: ConversationListing,
  /** Who may decide on pending actions, and how a caller is named (see decision-routes.ts). */
  decisionOptions: DecisionRouteOptions,
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

  registerConversationListingRoutes(fastify, manager, listing);

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

  registerConversationControlRoutes(fastify, manager, decisionOptions);
  registerConversationAgentRoutes(fastify, manager);
}
