import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { StartConversationRequest } from '../../api/request-schemas.js';
import type { ConversationManager } from '../../conversations/conversation-manager.js';
import { SSE_HEADERS } from '../../internal/sse-headers.js';
import { OPENAI_PATH } from '../face-paths.js';
import {
  type AgentAnswer,
  answerChunks,
  chatCompletionOf,
  completionIdentity,
  roleChunk,
  SSE_DONE,
  sseData,
} from './chat-completion.js';
import { type ChatCompletionRequest, chatCompletionRequestSchema, chatTurnOf } from './chat-request.js';
import { interruptWhenClientLeaves } from './client-watch.js';
import { CONVERSATION_HEADER, conversationIdOf } from './conversation-header.js';
import { type GatewayRun, gatewayAnswer, startGatewayRun } from './gateway-run.js';
import { openAiErrorOf } from './openai-error.js';
import { errorSchemas, gatewayErrorHandler, gatewayRouteConfig, modelNotFound, security } from './openai-http.js';
import { registerModelRoutes } from './openai-model-routes.js';
import { REQUEST_ID_HEADER, requestIdOf, sendRequestId } from './request-id.js';
import { registerResponsesRoutes } from './responses-routes.js';
import { cutAtFirstStop } from './stop-sequences.js';
import { refuseUnsupportedParameters } from './unsupported-parameters.js';

export { CONVERSATION_HEADER, OPENAI_PATH };

export interface OpenAiRoutesOptions {
  /** The models the gateway offers: each id is the create body of the conversations a request to it starts. */
  models: Readonly<Record<string, StartConversationRequest>>;
}

const completionSchema = z
  .looseObject({
    id: z.string(),
    object: z.literal('chat.completion'),
    created: z.number().int(),
    model: z.string(),
    choices: z.array(z.looseObject({})),
    usage: z.looseObject({}),
  })
  .describe(
    "An OpenAI ChatCompletion with the agent's final answer; with `stream: true`, text/event-stream of `chat.completion.chunk` frames ending `data: [DONE]`",
  );

/** The run's answer, cut at the first of the request's stop sequences. */
async function stoppedAnswer(
  run: GatewayRun,
  identity: { id: string; created: number; model: string },
  stop: ChatCompletionRequest['stop'],
): Promise<AgentAnswer> {
  const answer = await gatewayAnswer(run, identity);
  return { ...answer, content: cutAtFirstStop(answer.content, stop) };
}

async function stream(
  request: FastifyRequest,
  reply: FastifyReply,
  options: {
    run: GatewayRun;
    identity: { id: string; created: number; model: string };
    includeUsage: boolean;
    stop: ChatCompletionRequest['stop'];
  },
): Promise<void> {
  reply.hijack();
  const response = reply.raw;
  response.writeHead(200, {
    ...SSE_HEADERS,
    [CONVERSATION_HEADER]: options.run.conversation.id,
    [REQUEST_ID_HEADER]: requestIdOf(request),
  });
  const unwatch = interruptWhenClientLeaves(options.run, response, request.log);
  // A write to a connection the client closed would fail: the frames go out only while it is open.
  const write = (frame: string): void => {
    if (!response.writableEnded && !response.destroyed) response.write(frame);
  };
  // The role chunk goes out at once: the client knows the run started (and its conversation) while it works.
  write(sseData(roleChunk(options.identity)));
  try {
    const answer = await stoppedAnswer(options.run, options.identity, options.stop);
    for (const chunk of answerChunks(answer, { includeUsage: options.includeUsage })) write(sseData(chunk));
    write(SSE_DONE);
  } catch (error) {
    request.log.warn({ err: error, conversationId: options.run.conversation.id }, 'openai: the run did not answer');
    // An `error` frame is what the openai SDK's stream throws as an APIError.
    write(sseData(openAiErrorOf(error).body));
  } finally {
    unwatch();
    response.end();
  }
}

/**
 * The OpenAI-compatible gateway (the reference's `/v1` router): `GET /v1/models` lists the configured agents,
 * `POST /v1/chat/completions` runs one on the latest user message and answers with its final response, whole or
 * streamed, and `POST /v1/responses` / `GET /v1/responses/{id}` do the same in the Responses API (responses-routes). Every error is OpenAI's error body with a 4xx (or 500 for a failed run), and every answer carries an
 * `x-request-id`.
 */
export function registerOpenAiRoutes(
  app: FastifyInstance,
  manager: ConversationManager,
  options: OpenAiRoutesOptions,
): void {
  const modelIds = Object.keys(options.models).sort();
  registerModelRoutes(app, modelIds);
  registerResponsesRoutes(app, manager, { models: options.models });

  app.post(
    `${OPENAI_PATH}/chat/completions`,
    {
      config: gatewayRouteConfig,
      onSend: sendRequestId,
      schema: {
        tags: ['openai'],
        summary: 'Run an agent on a chat (OpenAI Chat Completions), answering with its final response',
        description: `A new conversation per request, or the one named by the \`${CONVERSATION_HEADER}\` header (created with that id when it does not exist); the response carries the header.`,
        operationId: 'openaiChatCompletion',
        security,
        body: chatCompletionRequestSchema,
        response: { 200: completionSchema, ...errorSchemas },
      },
      errorHandler: gatewayErrorHandler,
    },
    async (request, reply) => {
      const body = request.body as ChatCompletionRequest;
      const create = Object.hasOwn(options.models, body.model) ? options.models[body.model] : undefined;
      if (create === undefined) throw modelNotFound(body.model, modelIds);
      refuseUnsupportedParameters(body);
      const turn = chatTurnOf(body);
      const run = await startGatewayRun(manager, {
        model: body.model,
        create,
        turn,
        conversationId: conversationIdOf(request),
        systemParam: 'messages',
      });
      const identity = { ...completionIdentity(), model: body.model };
      if (body.stream === true) {
        return stream(request, reply, {
          run,
          identity,
          includeUsage: body.stream_options?.include_usage === true,
          stop: body.stop,
        });
      }
      const unwatch = interruptWhenClientLeaves(run, reply.raw, request.log);
      // Named on an error too: a run stopped for a confirmation leaves its conversation waiting for the client.
      reply.header(CONVERSATION_HEADER, run.conversation.id);
      try {
        const answer = await stoppedAnswer(run, identity, body.stop);
        return reply.send(chatCompletionOf(answer));
      } finally {
        unwatch();
      }
    },
  );
}
