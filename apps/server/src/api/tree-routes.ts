import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ConversationManager } from '../conversations/conversation-manager.js';
import type { ManagedConversation } from '../conversations/managed-conversation.js';
import { secretInputsOf } from '../conversations/secret-inputs.js';
import { assertWorkspaceRootExists } from '../workspace/existing-workspace-root.js';
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

export interface TreeRoutesOptions {
  /** The server's workspace root, where the conversations' working directories lie. */
  workspaceRoot: string;
}

/**
 * The reference's fork, navigate, secrets and security_analyzer routes (§11.2). Forking and navigating a
 * conversation with `workspace_checkpoints` restore its working directory's files, making the directory (and every
 * directory above it) when missing: once the workspace root has been deleted they are refused (409
 * `workspace_gone`) rather than make the root again.
 */
export function registerTreeRoutes(
  fastify: FastifyInstance,
  manager: ConversationManager,
  options: TreeRoutesOptions,
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const assertRestorable = async (conversation: ManagedConversation): Promise<void> => {
    if (!conversation.meta.workspace_checkpoints) return;
    await assertWorkspaceRootExists(options.workspaceRoot);
  };

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
      await assertRestorable(await manager.require(request.params.conversation_id));
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
      await assertRestorable(conversation);
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
