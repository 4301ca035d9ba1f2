import type { KeyObject } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { StartConversationRequest } from '../../api/request-schemas.js';
import { API_ERRORS, errorResponses } from '../../api/response-schemas.js';
import type { ConversationManager } from '../../conversations/conversation-manager.js';
import { ConversationDeletedError } from '../../conversations/errors/conversation-deleted-error.js';
import type { ManagedConversation } from '../../conversations/managed-conversation.js';
import { clientText } from '../../internal/client-text.js';
import { SSE_HEADERS } from '../../internal/sse-headers.js';
import { type DispatchOptions, dispatchRpc, STREAMING_METHODS } from './a2a-dispatch.js';
import { A2aRpcError, rpcErrorResponse } from './a2a-rpc-error.js';
import { streamTask } from './a2a-stream.js';
import { A2A_PATH, AGENT_CARD_PATH, agentCard } from './agent-card.js';
import { signAgentCard } from './card-signature.js';
import { type RequestId, type RpcCall, readCalls, unsupportedVersion } from './json-rpc-calls.js';

export interface A2aRoutesOptions {
  version: string;
  /** The create body of a task whose first message brings none in `metadata.conversation`. */
  defaultConversation?: StartConversationRequest | undefined;
  /** Whether the server wants a session key (the card then declares it). */
  requiresKey: boolean;
  /** The Ed25519 private key the card is signed with (its `signatures`); unsigned without one. */
  signingKey?: KeyObject | undefined;
}

const rpcResponseSchema = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number(), z.null()]),
    result: z.unknown().optional(),
    error: z.looseObject({ code: z.number().int(), message: z.string() }).optional(),
  })
  .describe(
    'A JSON-RPC 2.0 response: `result` (a Task, or ListTasks page) or `error` (A2A codes: -32001 task not found, -32002 not cancelable, -32003 no push notifications, -32004 unsupported, -32005 content type not supported, -32009 version not supported, -326xx JSON-RPC). SendStreamingMessage and SubscribeToTask answer text/event-stream instead, one such response per event.',
  );

const rpcAnswerSchema = z
  .union([rpcResponseSchema, z.array(rpcResponseSchema)])
  .describe(
    'One response, or for a batch request (a JSON array) an array of them, one per call that has an id. A body of notifications only (calls without an id) is answered 204 with no body, as JSON-RPC answers none, streaming methods included.',
  );

const agentCardSchema = z
  .looseObject({
    name: z.string(),
    description: z.string(),
    version: z.string(),
    supportedInterfaces: z.array(
      z.looseObject({ url: z.string(), protocolBinding: z.string(), protocolVersion: z.string() }),
    ),
    capabilities: z.looseObject({ streaming: z.boolean() }),
    skills: z.array(z.looseObject({ id: z.string(), name: z.string() })),
    signatures: z
      .array(z.looseObject({ protected: z.string(), signature: z.string() }))
      .optional()
      .describe('JWS signatures (EdDSA) over the canonical card, when the server has a signing key'),
  })
  .describe('The A2A agent card (protocol 1.0)');

/** Answers a streaming method: server-sent JSON-RPC responses, built from the conversation's log. */
async function stream(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { conversation: ManagedConversation; requestId: RequestId; fromIndex: number; runStarted: boolean },
): Promise<void> {
  reply.hijack();
  const response = reply.raw;
  response.writeHead(200, SSE_HEADERS);
  const gone = new AbortController();
  request.raw.once('close', () => gone.abort());
  response.once('close', () => gone.abort());
  try {
    await streamTask({ ...options, response, signal: gone.signal });
  } catch (error) {
    if (ConversationDeletedError.isInstance(error)) {
      request.log.info({ conversationId: options.conversation.id }, 'a2a: the streamed task was deleted');
    } else request.log.error({ err: error, conversationId: options.conversation.id }, 'a2a: streaming the task failed');
    if (!response.writableEnded)
      response.write(`data: ${JSON.stringify(rpcErrorResponse(options.requestId, error))}\n\n`);
  } finally {
    response.end();
  }
}

type Outcome = Awaited<ReturnType<typeof dispatchRpc>>;

function isStream(outcome: unknown): outcome is Extract<Outcome, { kind: 'stream' }> {
  return (outcome as { kind?: unknown } | null)?.kind === 'stream';
}

function errorOf(request: FastifyRequest, call: Extract<RpcCall, { rpc: unknown }>, error: unknown) {
  if (!A2aRpcError.isInstance(error)) request.log.warn({ err: error, method: call.rpc.method }, 'a2a: request failed');
  return rpcErrorResponse(call.id, error);
}

/**
 * The response to one call of a single or batch request, undefined for a notification (JSON-RPC 2.0 answers none).
 * Streaming methods cannot be batched: their answer is a stream of its own, so in a batch they are refused unrun.
 * A notification to one is carried out all the same, single or batched, as every method's is: SendStreamingMessage
 * sends its message and starts the run, SubscribeToTask does nothing; neither is answered.
 */
async function answer(
  request: FastifyRequest,
  call: RpcCall,
  context: { batch: boolean; version: string | undefined; dispatch: DispatchOptions },
): Promise<Record<string, unknown> | undefined> {
  if ('invalid' in call) return { ...call.invalid };
  let response: Record<string, unknown>;
  if (context.version !== undefined) {
    response = rpcErrorResponse(call.id, new A2aRpcError('versionNotSupported', context.version));
  } else if (STREAMING_METHODS.has(call.rpc.method) && !call.notification) {
    // Only a batch gets here: a single streaming call is answered with its stream. A notification wants no answer, so
    // it is carried out below like any other call (its stream, were one started, would have no reader).
    response = rpcErrorResponse(
      call.id,
      new A2aRpcError('invalidRequest', `${call.rpc.method} answers with a stream and cannot be part of a batch`),
    );
  } else {
    try {
      const outcome = await dispatchRpc(call.rpc, context.dispatch);
      response = { jsonrpc: '2.0', id: call.id, result: outcome.kind === 'result' ? outcome.result : null };
    } catch (error) {
      response = errorOf(request, call, error);
    }
  }
  return call.notification ? undefined : response;
}

/** ContentTypeNotSupported (-32005), as `@a2a-js/sdk`'s own server answers it, naming the request's media type. */
function contentTypeRefusal(header: string | undefined): Record<string, unknown> {
  const given =
    header === undefined || header.trim() === '' ? 'no Content-Type' : `Content-Type '${clientText(header)}'`;
  return rpcErrorResponse(
    null,
    new A2aRpcError('contentTypeNotSupported', `Unsupported ${given}: a JSON-RPC request is application/json`),
  );
}

/**
 * The refusal of a request whose body is not `application/json`, or undefined for one that is (or has no body, so
 * no media type). The body may be valid JSON, so it is neither a parse error nor an invalid request.
 */
function mediaTypeRefusal(request: FastifyRequest): Record<string, unknown> | undefined {
  const header = request.headers['content-type'];
  const mediaType = header?.split(';', 1)[0]?.trim().toLowerCase();
  if (mediaType === undefined || mediaType === '' || mediaType === 'application/json') return undefined;
  return contentTypeRefusal(header);
}

/**
 * The refusal of a request body over the server's size limit: Invalid Request (-32600), the closest JSON-RPC code
 * for a request that cannot be taken as it is, with a message that names the limit. No id: the body was not read.
 */
function tooLarge(request: FastifyRequest): Record<string, unknown> {
  return rpcErrorResponse(
    null,
    new A2aRpcError(
      'invalidRequest',
      `The request body is larger than this server's limit of ${request.routeOptions.bodyLimit} bytes: send less per request (large files as url parts)`,
    ),
  );
}

/**
 * The A2A face (protocol v1.0, JSON-RPC binding): the agent card at `/.well-known/agent-card.json` (public), and
 * `POST /api/a2a` for `SendMessage`, `SendStreamingMessage`, `GetTask`, `ListTasks`, `CancelTask` and
 * `SubscribeToTask` (the non-streaming ones also in JSON-RPC batches). A task is a conversation, and so is its
 * context. Every error is a JSON-RPC error with the spec's code.
 */
export function registerA2aRoutes(app: FastifyInstance, manager: ConversationManager, options: A2aRoutesOptions): void {
  const dispatch: DispatchOptions = { manager, defaultConversation: options.defaultConversation };
  app.get(
    AGENT_CARD_PATH,
    {
      config: { public: true },
      schema: {
        tags: ['a2a'],
        summary: 'The A2A agent card',
        operationId: 'a2aAgentCard',
        security: [],
        response: { 200: agentCardSchema, ...errorResponses([500]) },
      },
    },
    async (request) => {
      const card = agentCard({
        baseUrl: `${request.protocol}://${request.host}`,
        version: options.version,
        defaultConversation: options.defaultConversation,
        requiresKey: options.requiresKey,
      });
      // Signed per request: the card names the URL the client reached the server by.
      return options.signingKey === undefined ? card : signAgentCard(card, options.signingKey);
    },
  );

  app.post(
    A2A_PATH,
    {
      schema: {
        tags: ['a2a'],
        summary:
          'A2A JSON-RPC 2.0 endpoint (SendMessage, SendStreamingMessage, GetTask, ListTasks, CancelTask, SubscribeToTask; batches of the non-streaming ones)',
        operationId: 'a2aRpc',
        response: {
          200: rpcAnswerSchema,
          ...errorResponses(API_ERRORS),
          413: rpcResponseSchema.describe(
            'The request body is over the server limit: a JSON-RPC Invalid Request (-32600) error naming the limit',
          ),
        },
      },
      // A body that is not JSON is a JSON-RPC parse error, answered as one; a body of another media type (one Fastify
      // has no parser for), or of none, is refused as the handler refuses the others; a body over the size limit is no
      // parse error (it was never read) but a 413 whose JSON-RPC error names the limit: the SDK client reports that
      // message.
      errorHandler: (error, request, reply) => {
        const code = (error as { statusCode?: number }).statusCode;
        if (code === 413) {
          void reply.code(413).send(tooLarge(request));
          return;
        }
        // Fastify has no parser for the body's media type, or the body came without one (no or a blank Content-Type).
        if (code === 415) {
          void reply.code(200).send(contentTypeRefusal(request.headers['content-type']));
          return;
        }
        const parse = code !== undefined && code < 500;
        void reply.code(200).send({
          jsonrpc: '2.0',
          id: null,
          error: { code: parse ? -32700 : -32603, message: (error as Error).message },
        });
      },
    },
    async (request, reply) => {
      const refusal = mediaTypeRefusal(request);
      if (refusal !== undefined) return refusal;
      const { batch, calls } = readCalls(request.body);
      const version = unsupportedVersion(request.headers['a2a-version']);
      const only = calls[0];
      if (!batch && version === undefined && only !== undefined && 'rpc' in only && !only.notification) {
        if (STREAMING_METHODS.has(only.rpc.method)) {
          // Refusals before the stream starts are a plain JSON-RPC error; the SDK reads them as such.
          const outcome = await dispatchRpc(only.rpc, dispatch).catch((error: unknown) => error);
          if (!isStream(outcome)) return errorOf(request, only, outcome);
          return stream(request, reply, { ...outcome, requestId: only.id });
        }
      }
      const responses: Record<string, unknown>[] = [];
      for (const call of calls) {
        const response = await answer(request, call, { batch, version, dispatch });
        if (response !== undefined) responses.push(response);
      }
      // Notifications only: JSON-RPC 2.0 sends nothing back. The 204 has no body, so no schema: the OpenAPI document
      // wants a JSON schema for every 2xx it lists, and the typed reply knows only the listed codes.
      if (responses.length === 0) return (reply as FastifyReply).code(204).send();
      return batch ? responses : responses[0];
    },
  );
}
