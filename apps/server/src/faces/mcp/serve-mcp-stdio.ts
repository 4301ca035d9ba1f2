import { loadMcpSdk } from './load-mcp-sdk.js';
import type { McpConversationHost } from './mcp-host.js';
import { createMcpProtocolServer } from './mcp-protocol-server.js';

export interface McpStdioServer {
  /** Resolves when the client closed the connection (stdin ended) or `close` was called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves the MCP face's tools over `host` on this process's stdin/stdout (`x mcp`). Nothing else may write to
 * stdout meanwhile: it carries the protocol.
 */
export async function serveMcpOverStdio(
  host: McpConversationHost,
  options: { name: string; version: string; onUnexpectedError?: (error: unknown, tool: string) => void },
): Promise<McpStdioServer> {
  const sdk = await loadMcpSdk();
  const server = createMcpProtocolServer(sdk, host, options);
  const transport = new sdk.stdio.StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    const closeSubscriptions = server.onclose;
    server.onclose = () => {
      closeSubscriptions?.();
      resolve();
    };
    // The SDK's stdio transport does not notice the end of stdin by itself.
    process.stdin.once('end', () => void server.close());
  });
  await server.connect(transport);
  return { closed, close: () => server.close() };
}
