import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { McpSdk } from './load-mcp-sdk.js';
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

/** Refusals as JSON-RPC errors; anything else as it is. */
async function refusing<T>(handle: () => Promise<T>): Promise<T> {
  try {
    return await handle();
  } catch (error) {
    if (McpResourceError.isInstance(error) || McpToolCallError.isInstance(error)) {
      throw rpcError(error.rpcCode, error.message, { reason: error.reason, ...error.details });
    }
    throw error;
  }
}

/**
 * One MCP server (one per session or stdio connection) offering the face's tools over `host`, and each
 * conversation's state and events as resources (subscribable: updated when its log grows; the list's changes
 * notified when the host tells them). Refusals become
 * JSON-RPC errors with their code and `data.reason`; a failure of the conversation itself (its model refused,
 * it is damaged) is a tool result with `isError`, as MCP asks for errors the model should see.
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
        'An @x agent: start_conversation, then run with a message; get_conversation reads its state and final answer; confirm_actions answers actions waiting for confirmation. Resources x://conversations/{id} and x://conversations/{id}/events?start=&limit= read its state and event log (subscribe to hear when the log grows).',
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
  server.setRequestHandler(ListResourcesRequestSchema, (request) =>
    refusing(() => listMcpResources(host, request.params?.cursor)),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: mcpResourceTemplates() }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) =>
    refusing(() => readMcpResource(host, request.params.uri)),
  );
  server.setRequestHandler(SubscribeRequestSchema, (request) =>
    refusing(async () => {
      await subscriptions.subscribe(request.params.uri);
      return {};
    }),
  );
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscriptions.unsubscribe(request.params.uri);
    return {};
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: mcpToolDescriptions(host) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
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
      if (McpToolCallError.isInstance(error)) {
        throw rpcError(error.rpcCode, error.message, { reason: error.reason, ...error.details });
      }
      options.onUnexpectedError?.(error, name);
      return {
        content: [{ type: 'text', text: `${name} failed: ${error instanceof Error ? error.message : String(error)}` }],
        isError: true,
      };
    }
  });
  return server;
}
