import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { buildLLM } from '../conversations/build-agent.js';
import type { ConversationManager } from '../conversations/conversation-manager.js';
import { InvalidRequestError } from '../conversations/errors/invalid-request-error.js';
import { SUCCESS, CONVERSATION_TAGS as tags } from './conversation-route-shared.js';
import { askAgentSchema, conversationParamsSchema, generateTitleSchema } from './request-schemas.js';
import { errorResponses, LLM_ERRORS, successSchema, textResponseSchema, titleSchema } from './response-schemas.js';

/** The routes of §11.2 that call the conversation's model: condense, ask_agent, generate_title. */
export function registerConversationAgentRoutes(fastify: FastifyInstance, manager: ConversationManager): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

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
      const config = request.body?.llm;
      // Built before anything is opened: a config that cannot build is a 422 that changes nothing.
      const llm = config ? buildLLM(config, undefined, manager.llmKeys, ['llm']) : undefined;
      const conversation = await managed.open();
      const title = await conversation.generateTitle({
        maxLength: request.body?.max_length ?? 50,
        ...(llm === undefined ? {} : { llm }),
      });
      managed.meta = { ...managed.meta, title };
      await managed.saveMeta();
      managed.publishFullState();
      return { title };
    },
  );
}
