import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';

/** One page of `tools/list` as the scripted server answers it. */
// A type (not an interface): the SDK's result types take it only as an indexable object.
export type ScriptedPage = {
  tools: Tool[];
  nextCursor?: string;
};

export interface ScriptedServer {
  url: string;
  /** The cursor of every `tools/list` received, in order (undefined for a first page). */
  listCalls: (string | undefined)[];
  /** How many server-to-client SSE streams (GET) are open now. */
  openStreams(): number;
  close(): Promise<void>;
}

/** A tool of the scripted server, taking any arguments. */
export const scriptedTool = (name: string): Tool => ({ name, inputSchema: { type: 'object' } });

/**
 * An MCP server on 127.0.0.1 (streamable HTTP, one session per client, in this process) whose `tools/list` answers
 * what `page(cursor)` gives, careless or hostile: the tests' stand-in for a server x does not control. Tools
 * answer `called <name>`.
 */
export async function startScriptedHttpServer(
  page: (cursor: string | undefined) => ScriptedPage,
): Promise<ScriptedServer> {
  const listCalls: (string | undefined)[] = [];
  const transports = new Map<string, StreamableHTTPServerTransport>();
  let streams = 0;
  const newSession = async (): Promise<StreamableHTTPServerTransport> => {
    const server = new Server({ name: 'scripted', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async (request) => {
      const cursor = request.params?.cursor;
      listCalls.push(cursor);
      return page(cursor);
    });
    server.setRequestHandler(CallToolRequestSchema, async (request) => ({
      content: [{ type: 'text', text: `called ${request.params.name}` }],
    }));
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => `s${transports.size + 1}`,
      onsessioninitialized: (id) => void transports.set(id, transport),
    });
    await server.connect(transport);
    return transport;
  };
  const http = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const id = request.headers['mcp-session-id'];
    const transport = typeof id === 'string' ? transports.get(id) : await newSession();
    if (transport === undefined) {
      response.writeHead(404).end();
      return;
    }
    if (request.method === 'GET') {
      streams += 1;
      response.once('close', () => {
        streams -= 1;
      });
    }
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    listCalls,
    openStreams: () => streams,
    close: async () => {
      await Promise.all([...transports.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
