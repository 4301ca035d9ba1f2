import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { conversationIdSchema, type StartConversationRequest } from '../../api/request-schemas.js';
import type { ConversationManager } from '../../conversations/conversation-manager.js';
import { answerChunks, chatCompletionOf, completionIdentity, roleChunk, SSE_DONE, sseData } from './chat-completion.js';
import { type ChatCompletionRequest, chatCompletionRequestSchema, chatTurnOf } from './chat-request.js';
import { type GatewayRun, gatewayAnswer, startGatewayRun } from './gateway-run.js';
import { invalidRequest, OpenAiGatewayError, openAiErrorBodySchema, openAiErrorOf } from './openai-error.js';

/** The path prefix of the gateway (an OpenAI client's `baseURL` is `<server>/v1`). */
export const OPENAI_PATH = '/v1';
/** The request and response header naming the conversation behind a completion (the reference's name). */
export const CONVERSATION_HEADER = 'X-OpenHands-ServerConversation-ID';

export interface OpenAiRoutesOptions {
  /** The models the gateway offers: each id is the create body of the conversations a request to it starts. */
  models: Readonly<Record<string, StartConversationRequest>>;
}

const modelSchema = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.number().int(),
  owned_by: z.string(),
});
const modelListSchema = z
  .object({ object: z.literal('list'), data: z.array(modelSchema) })
  .describe('The models (configured agents) a chat completion can name');

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

const errorMeaning = {
  400: 'Malformed JSON, a body that is not a chat request, no user message, a bad conversation header',
  401: 'No session key, or a wrong one (as `Authorization: Bearer` or `X-Session-API-Key`)',
  404: 'The model is not one of `GET /v1/models`',
  409: 'The conversation is running, or its run stopped for a confirmation or a pause',
  413: 'Request body too large',
  415: 'The body is not JSON',
  500: "The agent's run ended in error (or stuck)",
  '4xx': 'Any other client error',
  '5xx': 'Any other server error',
} as const;
/**
 * The server's own guards (Host/Origin, body limits) answer before the gateway's handler, in the REST API's
 * `{detail}` shape: both shapes are declared, so such an answer is sent as it is instead of failing to serialize.
 */
const guardErrorSchema = z.object({ detail: z.unknown() });
const errorSchemas = Object.fromEntries(
  Object.entries(errorMeaning).map(([status, meaning]) => [
    status,
    z.union([openAiErrorBodySchema, guardErrorSchema]).describe(meaning),
  ]),
);

/** OpenAI clients send the key as `Authorization: Bearer`; the REST header is accepted too (see route-auth). */
const security: Array<Record<string, string[]>> = [{ sessionApiKey: [] }, { bearerAuth: [] }];

function sendError(reply: FastifyReply, error: unknown): FastifyReply {
  const { status, body } = openAiErrorOf(error);
  // The openai SDK retries 409 and 5xx by default, which would run the agent again.
  return reply.code(status).header('x-should-retry', 'false').send(body);
}

function conversationIdOf(request: FastifyRequest): string | undefined {
  const header = request.headers[CONVERSATION_HEADER.toLowerCase()];
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value === '') return undefined;
  const parsed = conversationIdSchema.safeParse(value);
  if (!parsed.success)
    throw invalidRequest(`${CONVERSATION_HEADER}: ${parsed.error.issues[0]?.message}`, CONVERSATION_HEADER);
  return parsed.data;
}

async function stream(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { run: GatewayRun; identity: { id: string; created: number; model: string }; includeUsage: boolean },
): Promise<void> {
  reply.hijack();
  const response = reply.raw;
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    [CONVERSATION_HEADER]: options.run.conversation.id,
  });
  // The role chunk goes out at once: the client knows the run started (and its conversation) while it works.
  response.write(sseData(roleChunk(options.identity)));
  try {
    const answer = await gatewayAnswer(options.run, options.identity);
    for (const chunk of answerChunks(answer, { includeUsage: options.includeUsage })) response.write(sseData(chunk));
    response.write(SSE_DONE);
  } catch (error) {
    request.log.warn({ err: error, conversationId: options.run.conversation.id }, 'openai: the run did not answer');
    // An `error` frame is what the openai SDK's stream throws as an APIError.
    if (!response.writableEnded) response.write(sseData(openAiErrorOf(error).body));
  } finally {
    response.end();
  }
}

/**
 * The OpenAI-compatible gateway (the reference's `/v1` router): `GET /v1/models` lists the configured agents,
 * `POST /v1/chat/completions` runs one on the latest user message and answers with its final response, whole or
 * streamed. Every error is OpenAI's error body with a 4xx (or 500 for a failed run).
 */
export function registerOpenAiRoutes(
  app: FastifyInstance,
  manager: ConversationManager,
  options: OpenAiRoutesOptions,
): void {
  const modelIds = Object.keys(options.models).sort();

  app.get(
    `${OPENAI_PATH}/models`,
    {
      config: { bearerAuth: true },
      schema: {
        tags: ['openai'],
        summary: 'The models (configured agents) of the OpenAI-compatible gateway',
        operationId: 'openaiListModels',
        security,
        response: { 200: modelListSchema, ...errorSchemas },
      },
      errorHandler: (error, _request, reply) => sendError(reply, error),
    },
    async () => ({
      object: 'list' as const,
      data: modelIds.map((id) => ({ id, object: 'model' as const, created: 0, owned_by: 'x' })),
    }),
  );

  app.post(
    `${OPENAI_PATH}/chat/completions`,
    {
      config: { bearerAuth: true },
      schema: {
        tags: ['openai'],
        summary: 'Run an agent on a chat (OpenAI Chat Completions), answering with its final response',
        description: `A new conversation per request, or the one named by the \`${CONVERSATION_HEADER}\` header (created with that id when it does not exist); the response carries the header.`,
        operationId: 'openaiChatCompletion',
        security,
        body: chatCompletionRequestSchema,
        response: { 200: completionSchema, ...errorSchemas },
      },
      // Malformed JSON, a body that is not a chat request, a bad header: OpenAI's error body, never Fastify's.
      errorHandler: (error, _request, reply) => {
        const validation = (error as { validation?: Array<{ instancePath?: string; message?: string }> }).validation;
        if (validation !== undefined) {
          const first = validation[0];
          const param = first?.instancePath?.replace(/^\//, '').replaceAll('/', '.') || null;
          return sendError(
            reply,
            invalidRequest(`Invalid request body: ${param ?? 'body'}: ${first?.message ?? error.message}`, param),
          );
        }
        return sendError(reply, error);
      },
    },
    async (request, reply) => {
      const body = request.body as ChatCompletionRequest;
      const create = Object.hasOwn(options.models, body.model) ? options.models[body.model] : undefined;
      if (create === undefined) {
        throw new OpenAiGatewayError(
          { status: 404, type: 'invalid_request_error', code: 'model_not_found', param: 'model' },
          `The model '${body.model}' does not exist: GET /v1/models lists ${modelIds.length === 0 ? 'none (the server has no openaiModels configured)' : modelIds.join(', ')}`,
        );
      }
      const turn = chatTurnOf(body);
      const run = await startGatewayRun(manager, { create, turn, conversationId: conversationIdOf(request) });
      const identity = { ...completionIdentity(), model: body.model };
      if (body.stream === true) {
        return stream(request, reply, { run, identity, includeUsage: body.stream_options?.include_usage === true });
      }
      const answer = await gatewayAnswer(run, identity);
      return reply.header(CONVERSATION_HEADER, run.conversation.id).send(chatCompletionOf(answer));
    },
  );
}
