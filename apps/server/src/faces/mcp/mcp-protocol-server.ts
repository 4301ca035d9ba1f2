import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ServerResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { McpSdk } from './load-mcp-sdk.js';
import { McpCursorError } from './mcp-cursor-error.js';
import type { McpConversationHost } from './mcp-host.js';
import { watchListChanges } from './mcp-list-changes.js';
import { McpResourceError } from './mcp-resource-error.js';
import { listMcpResources, mcpResourceTemplates, readMcpResource } from './mcp-resources.js';
import { McpSubscriptions } from './mcp-subscriptions.js';
import { McpToolCallError } from './mcp-tool-call-error.js';
import { callMcpTool, mcpToolDescriptions } from './mcp-tools.js';

export interface McpProtocolServerOptions {
  /** The server's name in the MCP handshake (`serverInfo.name`). */
  name: string;
  version: string;
  /** Where unexpected tool failures are reported (refusals are the client's business, not logged). */
  onUnexpectedError?: ((error: unknown, tool: string) => void) | undefined;
}

/** A JSON-RPC error as the SDK sends a thrown error: its numeric `code`, its message and its `data`. */
function rpcError(code: number, message: string, data: Record<string, unknown>): Error {
  return Object.assign(new Error(message), { code, data });
}

/** JSON-RPC's Invalid params. */
const INVALID_PARAMS = -32602;

/** A list that fits one page: no cursor was ever given, so every one is refused (MCP pagination). */
function refuseAnyCursor(method: string, cursor: string | undefined): void {
  if (cursor !== undefined) throw new McpCursorError(method, cursor, 'the list is one page');
}

type RequestExtra = Parameters<Parameters<Server['setRequestHandler']>[1]>[1];

/** A request schema of the SDK: its `method` literal and its `params`. */
interface RequestSchema<T> {
  shape: { method: { value: string } };
  safeParse(request: unknown): { success: true; data: T } | { success: false; error: z.ZodError };
}

/**
 * Registers `handler` for the requests of `schema`, refusing malformed params with -32602 (Invalid params, as
 * JSON-RPC and MCP say). The SDK parses a request with its schema before any handler and sends a failure as
 * -32603 (Internal error), telling the client the server broke when its own request was wrong; so the SDK is given a
 * schema that only names the method, and the params are checked here. (For `tools/call`, the SDK's Server checks
 * them again itself, and answers -32602 too.)
 */
function handleRequest<T>(
  server: Server,
  schema: RequestSchema<T>,
  handler: (request: T, extra: RequestExtra) => ServerResult | Promise<ServerResult>,
): void {
  const method = schema.shape.method.value;
  server.setRequestHandler(z.looseObject({ method: z.literal(method) }), (request, extra) => {
    const parsed = schema.safeParse(request);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = issue?.path.join('.') ?? 'params';
      // A cursor that is no string is refused as every other cursor this server never gave, whatever the list.
      if (path === 'params.cursor') {
        const cursor = (request.params as { cursor?: unknown }).cursor;
        throw asRpcError(new McpCursorError(method, cursor, 'a cursor is a string'));
      }
      throw rpcError(INVALID_PARAMS, `Invalid params of ${method}: ${path}: ${issue?.message ?? 'invalid'}`, {
        reason: 'invalid_params',
        path,
      });
    }
    return handler(parsed.data, extra);
  });
}

type Refusal = McpResourceError | McpToolCallError | McpCursorError;

function asRpcError(refusal: Refusal): Error {
  return rpcError(refusal.rpcCode, refusal.message, { reason: refusal.reason, ...refusal.details });
}

/** Refusals as JSON-RPC errors; anything else as it is. */
async function refusing<T>(handle: () => T | Promise<T>): Promise<T> {
  try {
    return await handle();
  } catch (error) {
    if (McpResourceError.isInstance(error) || McpToolCallError.isInstance(error) || McpCursorError.isInstance(error)) {
      throw asRpcError(error);
    }
    throw error;
  }
}

/**
 * One MCP server (one per session or stdio connection) offering the face's tools over `host`, and each
 * conversation's state and events as resources (subscribable: updated when its log grows; the list's changes
 * notified when the host tells them). Refusals become
 * JSON-RPC errors with their code and `data.reason`, but for a tool's execution errors (arguments refused, a
 * conversation not found, a state that does not allow the call: `McpToolCallError.isExecutionError`) and failures of
 * the conversation itself (its model refused, it is damaged): those are tool results with `isError`, as MCP asks for
 * errors the model should see (`structuredContent.reason`, e.g. 'invalid_arguments' with the argument's `path`).
 */
export function createMcpProtocolServer(
  sdk: McpSdk,
  host: McpConversationHost,
  options: McpProtocolServerOptions,
): Server {
  const {
    ListToolsRequestSchema,
    CallToolRequestSchema,
    ListResourcesRequestSchema,
    ListResourceTemplatesRequestSchema,
    ReadResourceRequestSchema,
    SubscribeRequestSchema,
    UnsubscribeRequestSchema,
  } = sdk.types;
  const server = new sdk.server.Server(
    { name: options.name, version: options.version },
    {
      // The tools are fixed for a host; the resources (two per conversation) change when conversations come and go.
      capabilities: {
        tools: { listChanged: false },
        resources: { subscribe: true, listChanged: host.onListChanged !== undefined },
      },
      instructions:
        'An @x agent: start_conversation, then run with a message (interrupt stops a run); get_conversation reads its state and final answer; confirm_actions answers actions waiting for confirmation. Resources x://conversations/{id} and x://conversations/{id}/events?start=&limit= read its state and event log (subscribe to hear when the log grows).',
    },
  );
  const subscriptions = new McpSubscriptions(host, (uri) => {
    server.sendResourceUpdated({ uri }).catch(() => undefined);
  });
  const listChanges = watchListChanges(host, () => {
    server.sendResourceListChanged().catch(() => undefined);
  });
  // The list is watched from the client's `initialized` on (nothing but pings before it, says MCP); watches and
  // subscriptions live as long as the session (or stdio connection): bounded by it.
  server.oninitialized = () => listChanges.start();
  server.onclose = () => {
    subscriptions.close();
    listChanges.stop();
  };
  handleRequest(server, ListResourcesRequestSchema, (request) =>
    refusing(() => listMcpResources(host, request.params?.cursor)),
  );
  handleRequest(server, ListResourceTemplatesRequestSchema, (request) =>
    refusing(() => {
      refuseAnyCursor('resources/templates/list', request.params?.cursor);
      return { resourceTemplates: mcpResourceTemplates() };
    }),
  );
  handleRequest(server, ReadResourceRequestSchema, (request) =>
    refusing(() => readMcpResource(host, request.params.uri)),
  );
  handleRequest(server, SubscribeRequestSchema, (request) =>
    refusing(async () => {
      await subscriptions.subscribe(request.params.uri);
      return {};
    }),
  );
  handleRequest(server, UnsubscribeRequestSchema, (request) => {
    subscriptions.unsubscribe(request.params.uri);
    return {};
  });
  handleRequest(server, ListToolsRequestSchema, (request) =>
    refusing(() => {
      refuseAnyCursor('tools/list', request.params?.cursor);
      return { tools: mcpToolDescriptions(host) };
    }),
  );
  handleRequest(server, CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: input } = request.params;
    const progressToken = request.params._meta?.progressToken;
    const progress =
      progressToken === undefined
        ? undefined
        : (update: { progress: number; message: string }): void => {
            if (extra.signal.aborted) return;
            extra
              .sendNotification({ method: 'notifications/progress', params: { progressToken, ...update } })
              .catch(() => undefined);
          };
    try {
      return await callMcpTool(host, name, input, { signal: extra.signal, progress });
    } catch (error) {
      // A tool execution error (MCP 2025-11-25, SEP-1303: arguments refused, a conversation named that is not, a
      // state that does not allow the call): the model that called reads why in the result and can call again; a
      // client reads the reason in structuredContent.
      if (McpToolCallError.isInstance(error) && error.isExecutionError) {
        return {
          content: [{ type: 'text', text: error.message }],
          structuredContent: { reason: error.reason, ...error.details },
          isError: true,
        };
      }
      if (McpToolCallError.isInstance(error)) throw asRpcError(error);
      options.onUnexpectedError?.(error, name);
      return {
        content: [{ type: 'text', text: `${name} failed: ${error instanceof Error ? error.message : String(error)}` }],
        isError: true,
      };
    }
  });
  return server;
}
