import { randomUUID } from 'node:crypto';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { loadMcpSdk } from './load-mcp-sdk.js';
import type { McpConversationHost } from './mcp-host.js';
import { createMcpProtocolServer, type McpProtocolServerOptions } from './mcp-protocol-server.js';

/**
 * The MCP sessions of the streamable HTTP endpoint: one protocol server and transport per `Mcp-Session-Id`,
 * made by an `initialize` request and ended by `DELETE` (or the server's shutdown). Sessions hold no
 * conversation: a client that goes away leaves every run going.
 */
export class McpSessions {
  readonly #sessions = new Map<string, StreamableHTTPServerTransport>();
  readonly #host: McpConversationHost;
  readonly #options: McpProtocolServerOptions;
  #closed = false;

  constructor(host: McpConversationHost, options: McpProtocolServerOptions) {
    this.#host = host;
    this.#options = options;
  }

  get size(): number {
    return this.#sessions.size;
  }

  get(id: string): StreamableHTTPServerTransport | undefined {
    return this.#sessions.get(id);
  }

  /** A transport for a new session, registered once the SDK has answered its `initialize`. */
  async open(): Promise<StreamableHTTPServerTransport> {
    const sdk = await loadMcpSdk();
    const transport: StreamableHTTPServerTransport = new sdk.streamableHttp.StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        if (this.#closed) void transport.close();
        else this.#sessions.set(id, transport);
      },
      onsessionclosed: (id) => {
        this.#sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.#sessions.delete(transport.sessionId);
    };
    await createMcpProtocolServer(sdk, this.#host, this.#options).connect(transport);
    return transport;
  }

  /** Ends every session (their open streams close). */
  async close(): Promise<void> {
    this.#closed = true;
    const open = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(open.map((transport) => transport.close()));
  }
}
