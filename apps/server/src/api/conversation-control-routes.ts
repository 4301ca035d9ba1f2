import type { ConfirmationPolicy } from '@x/agent';
import type { Message } from '@x/events';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ConversationManager } from '../conversations/conversation-manager.js';
import { notFound400, SUCCESS, CONVERSATION_TAGS as tags } from './conversation-route-shared.js';
import { type DecisionRouteOptions, decidingPrincipal } from './decision-routes.js';
import {
  confirmationPolicyBodySchema,
  conversationParamsSchema,
  respondToConfirmationSchema,
  sendMessageRequestSchema,
} from './request-schemas.js';
import { CONVERSATION_ERRORS, errorResponses, successSchema } from './response-schemas.js';

/** The routes of §11.2 that drive a conversation: messages, runs, pause and interrupt, confirmation. */
export function registerConversationControlRoutes(
  fastify: FastifyInstance,
  manager: ConversationManager,
  /** Who may decide on pending actions, and how a caller is named (see decision-routes.ts). */
  decisionOptions: DecisionRouteOptions,
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

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
      // Which actions wait for a decision is itself a decision on them: with `approvalDeciders`, a caller outside it
      // could otherwise turn a decider's conversation to NeverConfirm and have every later action run undecided.
      decidingPrincipal(request, decisionOptions);
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
}
