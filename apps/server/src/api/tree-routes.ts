import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ConversationManager } from '../conversations/conversation-manager.js';
import { secretInputsOf } from '../conversations/secret-inputs.js';
import { conversationParamsSchema } from './request-schemas.js';
import type { ConversationInfoJson } from './response-schemas.js';
import {
  conversationInfoSchema,
  errorResponses,
  forkConversationSchema,
  navigateConversationSchema,
  setSecurityAnalyzerSchema,
  successSchema,
  updateSecretsSchema,
} from './tree-schemas.js';

const tags = ['conversations'];

/** The reference's fork, navigate, secrets and security_analyzer routes (§11.2). */
export function registerTreeRoutes(fastify: FastifyInstance, manager: ConversationManager): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/conversations/:conversation_id/fork',
    {
      schema: {
        tags,
        operationId: 'forkConversation',
        summary: 'Fork a conversation (all of it, or the branch up to from_event_id); 201 with the fork',
        params: conversationParamsSchema,
        body: forkConversationSchema,
        response: { 201: conversationInfoSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const fork = await manager.fork(request.params.conversation_id, request.body);
      return reply.code(201).send(fork.fullState() as ConversationInfoJson);
    },
  );

  app.post(
    '/api/conversations/:conversation_id/navigate',
    {
      schema: {
        tags,
        operationId: 'navigateConversation',
        summary: 'Move HEAD to an event (null: empty HEAD); 404 for an unknown event',
        params: conversationParamsSchema,
        body: navigateConversationSchema,
        response: { 200: conversationInfoSchema, ...errorResponses },
      },
    },
    async (request) => {
      const conversation = await manager.require(request.params.conversation_id);
      await conversation.navigateTo(request.body.event_id);
      return conversation.fullState() as ConversationInfoJson;
    },
  );

  app.post(
    '/api/conversations/:conversation_id/secrets',
    {
      schema: {
        tags,
        operationId: 'updateConversationSecrets',
        summary: 'Add or replace secrets (values never returned)',
        params: conversationParamsSchema,
        body: updateSecretsSchema,
        response: { 200: successSchema, ...errorResponses },
      },
    },
    async (request) => {
      const conversation = await manager.require(request.params.conversation_id);
      await conversation.updateSecrets(secretInputsOf(request.body.secrets));
      return { success: true };
    },
  );

  app.post(
    '/api/conversations/:conversation_id/security_analyzer',
    {
      schema: {
        tags,
        operationId: 'setConversationSecurityAnalyzer',
        summary: 'Set the security analyzer (LLMSecurityAnalyzer, or null for none)',
        params: conversationParamsSchema,
        body: setSecurityAnalyzerSchema,
        response: { 200: successSchema, ...errorResponses },
      },
    },
    async (request) => {
      const conversation = await manager.require(request.params.conversation_id);
      await conversation.setSecurityAnalyzer(request.body.security_analyzer);
      return { success: true };
    },
  );
}
