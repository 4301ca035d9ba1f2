import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { StartConversationRequest } from '../../api/request-schemas.js';
import type { ConversationManager } from '../../conversations/conversation-manager.js';
import { clientText } from '../../internal/client-text.js';
import { SSE_HEADERS } from '../../internal/sse-headers.js';
import { clientLeft, interruptWhenClientLeaves } from './client-watch.js';
import { otherModelRefused, otherSystemRefused } from './conversation-continuation.js';
import { CONVERSATION_HEADER, conversationIdOf } from './conversation-header.js';
import { type GatewayRun, gatewayAnswer, startGatewayRun } from './gateway-run.js';
import { invalidRequest, OpenAiGatewayError, openAiErrorOf } from './openai-error.js';
import { errorSchemas, gatewayErrorHandler, gatewayRouteConfig, modelNotFound, security } from './openai-http.js';
import { REQUEST_ID_HEADER, requestIdOf, sendRequestId } from './request-id.js';
import {
  completedResponse,
  endedResponse,
  outputMessageOf,
  type ResponseObject,
  startedResponse,
} from './response-object.js';
import { DEFAULT_RESPONSE_CAPACITY, ResponseStore, type StoredResponse } from './response-store.js';
import { refuseUnsupportedResponseParameters } from './responses-parameters.js';
import { type ResponsesRequest, responsesRequestSchema, responsesTurnOf } from './responses-request.js';
import { answerEvents, createEventFramer, failedEvent, startEvents } from './responses-stream.js';

const responseSchema = z
  .looseObject({
    id: z.string(),
    object: z.literal('response'),
    created_at: z.number().int(),
    status: z.string(),
    model: z.string(),
    output: z.array(z.looseObject({})),
  })
  .describe(
    "An OpenAI Response whose one output message is the agent's final answer; with `stream: true`, text/event-stream of OpenAI's `response.*` events, each with its `sequence_number`",
  );

/** Waits for the run's answer: the response completed with the final answer and what this run spent. */
async function completionOf(run: GatewayRun, started: ResponseObject): Promise<ResponseObject> {
  const answer = await gatewayAnswer(run, { id: started.id, created: started.created_at, model: started.model });
  return completedResponse(started, { message: outputMessageOf(answer.content), usage: answer.usage });
}

/** The response ended without an answer: `cancelled` when its client left, else `failed` with the gateway's error. */
function endedOf(started: ResponseObject, error: unknown, reply: FastifyReply): ResponseObject {
  if (clientLeft(reply.raw)) return endedResponse(started, { status: 'cancelled' });
  const { body } = openAiErrorOf(error);
  return endedResponse(started, {
    status: 'failed',
    code: body.error.code ?? body.error.type,
    message: body.error.message,
  });
}

/** What a request continues: the conversation of `previous_response_id`, or the one its header names. */
const previousNotFound = (message: string): OpenAiGatewayError =>
  new OpenAiGatewayError(
    { status: 404, type: 'invalid_request_error', code: 'previous_response_not_found', param: 'previous_response_id' },
    message,
  );

function continuationOf(
  request: FastifyRequest,
  body: ResponsesRequest,
  options: { store: ResponseStore; system: string },
): { previous: StoredResponse | undefined; conversationId: string | undefined } {
  const headerId = conversationIdOf(request);
  const previousId = body.previous_response_id;
  if (previousId === undefined || previousId === null) return { previous: undefined, conversationId: headerId };
  const previous = options.store.get(previousId);
  if (previous === undefined) {
    throw previousNotFound(
      `Previous response with id '${clientText(previousId)}' not found: the server keeps the responses it made (but those with store: false) until it restarts; continue the conversation by its ${CONVERSATION_HEADER} header`,
    );
  }
  const hex = (id: string): string => id.replaceAll('-', '').toLowerCase();
  if (headerId !== undefined && hex(headerId) !== hex(previous.conversationId)) {
    throw invalidRequest(
      `previous_response_id '${clientText(previousId)}' is in conversation ${previous.conversationId}, not in ${headerId} named by ${CONVERSATION_HEADER}`,
      'previous_response_id',
    );
  }
  // The conversation keeps the agent it started with: another model's agent would not answer, and the response would
  // name a model that did not run.
  if (body.model !== previous.response.model) {
    throw otherModelRefused(body.model, "previous_response_id's conversation", previous.response.model);
  }
  // The system message is written when the conversation starts: other instructions could not reach the agent.
  if (options.system !== '' && options.system !== previous.system) {
    throw otherSystemRefused('instructions', "previous_response_id's conversation");
  }
  return { previous, conversationId: previous.conversationId };
}

async function stream(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { run: GatewayRun; entry: StoredResponse; keep: (entry: StoredResponse) => void },
): Promise<void> {
  const { run, entry } = options;
  reply.hijack();
  const response = reply.raw;
  response.writeHead(200, {
    ...SSE_HEADERS,
    [CONVERSATION_HEADER]: run.conversation.id,
    [REQUEST_ID_HEADER]: requestIdOf(request),
  });
  const unwatch = interruptWhenClientLeaves(run, response, request.log);
  const frame = createEventFramer();
  // A write to a connection the client closed would fail: the frames go out only while it is open.
  const write = (frames: string[]): void => {
    if (!response.writableEnded && !response.destroyed) response.write(frames.join(''));
  };
  // The response goes out at once, in progress: the client knows the run started (and its id) while it works.
  write(startEvents(entry.response).map(frame));
  try {
    const completed = await completionOf(run, entry.response);
    options.keep({ ...entry, response: completed });
    write(answerEvents(completed).map(frame));
  } catch (error) {
    request.log.warn({ err: error, conversationId: run.conversation.id }, 'openai: the run did not answer');
    const ended = endedOf(entry.response, error, reply);
    options.keep({ ...entry, response: ended });
    write([frame(failedEvent(ended))]);
  } finally {
    unwatch();
    response.end();
  }
}

/**
 * The Responses API of the gateway: `POST /v1/responses` runs the model's agent on the latest user message of
 * `input` (in a new conversation, or the one of `previous_response_id`) and answers with its final response, whole or
 * as OpenAI's event stream; `GET /v1/responses/{id}` returns a response the server made. Errors, auth, request ids and
 * a client that leaves are handled as on `POST /v1/chat/completions`.
 */
export function registerResponsesRoutes(
  app: FastifyInstance,
  manager: ConversationManager,
  options: { models: Readonly<Record<string, StartConversationRequest>>; store?: ResponseStore },
): void {
  const modelIds = Object.keys(options.models).sort();
  const store = options.store ?? new ResponseStore();

  app.post(
    '/v1/responses',
    {
      config: gatewayRouteConfig,
      onSend: sendRequestId,
      schema: {
        tags: ['openai'],
        summary: 'Run an agent on an input (OpenAI Responses), answering with its final response',
        description: `A new conversation per request, or the conversation of \`previous_response_id\` (asked of the same \`model\`) or of the \`${CONVERSATION_HEADER}\` header; the response carries the header. The server keeps its responses in memory (newest ${DEFAULT_RESPONSE_CAPACITY}, but those with \`store: false\`) for \`GET /v1/responses/{response_id}\` and \`previous_response_id\`.`,
        operationId: 'openaiCreateResponse',
        security,
        body: responsesRequestSchema,
        response: { 200: responseSchema, ...errorSchemas },
      },
      errorHandler: gatewayErrorHandler,
    },
    async (request, reply) => {
      const body = request.body as ResponsesRequest;
      const create = Object.hasOwn(options.models, body.model) ? options.models[body.model] : undefined;
      if (create === undefined) throw modelNotFound(body.model, modelIds);
      refuseUnsupportedResponseParameters(body);
      const turn = responsesTurnOf(body);
      const { previous, conversationId } = continuationOf(request, body, { store, system: turn.system });
      const run = await startGatewayRun(manager, {
        model: body.model,
        create,
        turn,
        conversationId,
        systemParam: 'instructions',
        ...(previous === undefined
          ? {}
          : {
              missing: (id: string) =>
                previousNotFound(
                  `Previous response with id '${previous.response.id}' cannot be continued: its conversation ${id} was deleted`,
                ),
            }),
      });
      const keepIt = body.store !== false;
      const keep = (entry: StoredResponse): void => {
        if (keepIt) store.set(entry);
      };
      const started = startedResponse({
        model: body.model,
        instructions: body.instructions ?? null,
        metadata: body.metadata ?? {},
        previous_response_id: previous?.response.id ?? null,
        store: keepIt,
        parallel_tool_calls: body.parallel_tool_calls ?? true,
      });
      const entry: StoredResponse = {
        response: started,
        conversationId: run.conversation.id,
        system: previous?.system ?? turn.system,
      };
      keep(entry);
      if (body.stream === true) return stream(request, reply, { run, entry, keep });
      const unwatch = interruptWhenClientLeaves(run, reply.raw, request.log);
      // Named on an error too: a run stopped for a confirmation leaves its conversation waiting for the client.
      reply.header(CONVERSATION_HEADER, run.conversation.id);
      try {
        const completed = await completionOf(run, started);
        keep({ ...entry, response: completed });
        return reply.send(completed);
      } catch (error) {
        keep({ ...entry, response: endedOf(started, error, reply) });
        throw error;
      } finally {
        unwatch();
      }
    },
  );

  app.get(
    '/v1/responses/:response_id',
    {
      config: gatewayRouteConfig,
      onSend: sendRequestId,
      schema: {
        tags: ['openai'],
        summary: 'A response the OpenAI-compatible gateway made (OpenAI Responses retrieve)',
        description:
          'In progress while its run works, then completed, failed or cancelled. A response made with `store: false`, one older than the newest the server keeps, or one made before a restart is a 404.',
        operationId: 'openaiRetrieveResponse',
        security,
        params: z.object({ response_id: z.string().min(1) }),
        querystring: z.looseObject({ stream: z.string().optional() }),
        response: { 200: responseSchema, ...errorSchemas },
      },
      errorHandler: gatewayErrorHandler,
    },
    async (request, reply) => {
      const { response_id: id } = request.params as { response_id: string };
      const { stream: streamed } = request.query as { stream?: string };
      if (streamed !== undefined && streamed !== 'false') {
        throw invalidRequest(
          "Unsupported parameter: 'stream' is not supported when retrieving a response: the gateway keeps no events to replay",
          'stream',
          'unsupported_parameter',
        );
      }
      const stored = store.get(id);
      if (stored === undefined) {
        throw new OpenAiGatewayError(
          { status: 404, type: 'invalid_request_error', code: 'response_not_found' },
          `Response with id '${clientText(id)}' not found: the server keeps the responses it made (but those with store: false) until it restarts`,
        );
      }
      return reply.header(CONVERSATION_HEADER, stored.conversationId).send(stored.response);
    },
  );
}
