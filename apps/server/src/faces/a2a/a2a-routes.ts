import type { KeyObject } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { StartConversationRequest } from '../../api/request-schemas.js';
import { API_ERRORS, errorResponses } from '../../api/response-schemas.js';
import type { ConversationManager } from '../../conversations/conversation-manager.js';
import type { ManagedConversation } from '../../conversations/managed-conversation.js';
import {
  listTasksParamsSchema,
  type RpcRequest,
  rpcRequestSchema,
  sendMessageParamsSchema,
  taskIdParamsSchema,
} from './a2a-requests.js';
import { A2aRpcError, rpcErrorResponse } from './a2a-rpc-error.js';
import { streamTask } from './a2a-stream.js';
import { applyMessage, cancelTask, findTask, runEnded, taskOf } from './a2a-tasks.js';
import { A2A_PATH, AGENT_CARD_PATH, agentCard } from './agent-card.js';
import { signAgentCard } from './card-signature.js';
import { listTasks } from './list-tasks.js';
import { isFinalState } from './task-projection.js';

export interface A2aRoutesOptions {
  version: string;
  /** The create body of a task whose first message brings none in `metadata.conversation`. */
  defaultConversation?: StartConversationRequest | undefined;
  /** Whether the server wants a session key (the card then declares it). */
  requiresKey: boolean;
  /** The Ed25519 private key the card is signed with (its `signatures`); unsigned without one. */
  signingKey?: KeyObject | undefined;
}

type RequestId = string | number | null;

const rpcResponseSchema = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number(), z.null()]),
    result: z.unknown().optional(),
    error: z.looseObject({ code: z.number().int(), message: z.string() }).optional(),
  })
  .describe(
    'A JSON-RPC 2.0 response: `result` (a Task, or ListTasks page) or `error` (A2A codes: -32001 task not found, -32002 not cancelable, -32003 no push notifications, -32004 unsupported, -326xx JSON-RPC). SendStreamingMessage and SubscribeToTask answer text/event-stream instead, one such response per event.',
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

function paramsOf<T extends z.ZodType>(schema: T, request: RpcRequest): z.infer<T> {
  const parsed = schema.safeParse(request.params ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? 'params' : `params.${issue.path.join('.')}`;
    throw new A2aRpcError('invalidParams', `${request.method}: ${where}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** Answers a streaming method: server-sent JSON-RPC responses, built from the conversation's log. */
async function stream(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { conversation: ManagedConversation; requestId: RequestId; fromIndex: number },
): Promise<void> {
  reply.hijack();
  const response = reply.raw;
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  const gone = new AbortController();
  request.raw.once('close', () => gone.abort());
  response.once('close', () => gone.abort());
  try {
    await streamTask({ ...options, response, signal: gone.signal });
  } catch (error) {
    request.log.error({ err: error, conversationId: options.conversation.id }, 'a2a: streaming the task failed');
    if (!response.writableEnded)
      response.write(`data: ${JSON.stringify(rpcErrorResponse(options.requestId, error))}\n\n`);
  } finally {
    response.end();
  }
}

/**
 * The A2A face (protocol v1.0, JSON-RPC binding): the agent card at `/.well-known/agent-card.json` (public), and
 * `POST /api/a2a` for `SendMessage`, `SendStreamingMessage`, `GetTask`, `ListTasks`, `CancelTask` and
 * `SubscribeToTask`. A task is a conversation. Every error is a JSON-RPC error with the spec's code.
 */
export function registerA2aRoutes(app: FastifyInstance, manager: ConversationManager, options: A2aRoutesOptions): void {
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
          'A2A JSON-RPC 2.0 endpoint (SendMessage, SendStreamingMessage, GetTask, ListTasks, CancelTask, SubscribeToTask)',
        operationId: 'a2aRpc',
        response: { 200: rpcResponseSchema, ...errorResponses(API_ERRORS) },
      },
      // A body that is not JSON is a JSON-RPC parse error, answered as one.
      errorHandler: (error, _request, reply) => {
        const code = (error as { statusCode?: number }).statusCode;
        const parse = code !== undefined && code < 500;
        void reply.code(200).send({
          jsonrpc: '2.0',
          id: null,
          error: { code: parse ? -32700 : -32603, message: (error as Error).message },
        });
      },
    },
    async (request, reply) => {
      const envelope = rpcRequestSchema.safeParse(request.body);
      if (!envelope.success) {
        const id = (request.body as { id?: unknown } | null)?.id;
        return {
          jsonrpc: '2.0',
          id: typeof id === 'string' || typeof id === 'number' ? id : null,
          error: { code: -32600, message: `Not a JSON-RPC 2.0 request: ${envelope.error.issues[0]?.message ?? ''}` },
        };
      }
      const rpc = envelope.data;
      const id: RequestId = rpc.id ?? null;
      try {
        switch (rpc.method) {
          case 'SendMessage': {
            const params = paramsOf(sendMessageParamsSchema, rpc);
            const { conversation } = await applyMessage(manager, params.message, options.defaultConversation);
            if (params.configuration?.returnImmediately !== true) await runEnded(conversation);
            const historyLength = params.configuration?.historyLength;
            const task = (await taskOf(conversation)).task(historyLength === undefined ? {} : { historyLength });
            return { jsonrpc: '2.0', id, result: { task } };
          }
          case 'SendStreamingMessage': {
            const params = paramsOf(sendMessageParamsSchema, rpc);
            const { conversation, fromIndex } = await applyMessage(
              manager,
              params.message,
              options.defaultConversation,
            );
            return stream(request, reply, { conversation, requestId: id, fromIndex });
          }
          case 'SubscribeToTask': {
            const params = paramsOf(taskIdParamsSchema, rpc);
            const conversation = await findTask(manager, params.id);
            const fromIndex = conversation.log.length;
            const state = (await taskOf(conversation)).state;
            if (!conversation.isRunning && isFinalState(state)) {
              throw new A2aRpcError(
                'unsupportedOperation',
                `Task '${params.id}' has ended (${state}): nothing to subscribe to`,
              );
            }
            return stream(request, reply, { conversation, requestId: id, fromIndex });
          }
          case 'GetTask': {
            const params = paramsOf(taskIdParamsSchema, rpc);
            const conversation = await findTask(manager, params.id);
            const history = params.historyLength === undefined ? {} : { historyLength: params.historyLength };
            return { jsonrpc: '2.0', id, result: (await taskOf(conversation)).task(history) };
          }
          case 'ListTasks':
            return { jsonrpc: '2.0', id, result: await listTasks(manager, paramsOf(listTasksParamsSchema, rpc)) };
          case 'CancelTask': {
            const params = paramsOf(taskIdParamsSchema, rpc);
            const conversation = await findTask(manager, params.id);
            return { jsonrpc: '2.0', id, result: (await cancelTask(conversation)).task() };
          }
          case 'CreateTaskPushNotificationConfig':
          case 'GetTaskPushNotificationConfig':
          case 'ListTaskPushNotificationConfigs':
          case 'DeleteTaskPushNotificationConfig':
            throw new A2aRpcError('pushNotificationNotSupported', 'This agent does not send push notifications');
          default:
            return { jsonrpc: '2.0', id, error: { code: -32601, message: `Unknown A2A method '${rpc.method}'` } };
        }
      } catch (error) {
        if (!A2aRpcError.isInstance(error)) request.log.warn({ err: error, method: rpc.method }, 'a2a: request failed');
        return rpcErrorResponse(id, error);
      }
    },
  );
}
