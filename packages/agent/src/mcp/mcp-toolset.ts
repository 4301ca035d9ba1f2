import type { Tool } from '../tools/tool.js';
import { McpConnection } from './internal/mcp-connection.js';
import { loadMcpSdk } from './internal/mcp-sdk.js';
import { type McpConfig, type McpConfigInput, parseMcpConfig } from './mcp-config.js';
import { McpServerError } from './mcp-server-error.js';
import { createMcpTool } from './mcp-tool.js';

export interface McpToolsetOptions {
  /** Directory stdio servers start in when their config has no `cwd`. */
  workspace?: string;
  /** Limit of starting each server and listing its tools, in seconds (default 30, as the reference). */
  startTimeout?: number;
}

/** What starting the servers gave: their tools, and one error per server that could not be listed. */
export interface McpStartResult {
  tools: Tool[];
  errors: McpServerError[];
}

/**
 * The MCP servers of one configuration. `start` launches every enabled server and lists its tools (in parallel);
 * a server that fails becomes an error in the result, never an exception. Servers stay up across steps, a crashed
 * or timed-out server is started again by its next call, and `close` stops them all.
 */
export class McpToolset {
  readonly config: McpConfig;
  readonly #connections: McpConnection[];

  constructor(config: McpConfigInput | McpConfig, options: McpToolsetOptions = {}) {
    this.config = parseMcpConfig(config);
    this.#connections = Object.entries(this.config)
      .filter(([, server]) => server.enabled)
      .map(([name, server]) => new McpConnection({ name, server, ...options }));
  }

  /** Names of the servers that will be started (enabled ones). */
  get serverNames(): string[] {
    return this.#connections.map((connection) => connection.name);
  }

  /** Throws `MissingDependencyError` when `@modelcontextprotocol/sdk` is not installed. */
  async start(): Promise<McpStartResult> {
    // Without the SDK no server can start: one MissingDependencyError naming it, not one failure per server.
    if (this.#connections.length > 0) await loadMcpSdk();
    const listed = await Promise.all(
      this.#connections.map(async (connection) => {
        try {
          return { connection, descriptors: await connection.listTools() };
        } catch (error) {
          const failure =
            error instanceof McpServerError
              ? error
              : new McpServerError(connection.name, `MCP server '${connection.name}' failed: ${String(error)}`, {
                  cause: error,
                });
          return { connection, error: failure };
        }
      }),
    );
    const tools: Tool[] = [];
    const errors: McpServerError[] = [];
    const seen = new Set<string>();
    for (const entry of listed) {
      if (entry.error !== undefined) {
        errors.push(entry.error);
        continue;
      }
      for (const descriptor of entry.descriptors ?? []) {
        if (seen.has(descriptor.name)) {
          errors.push(
            new McpServerError(
              entry.connection.name,
              `MCP server '${entry.connection.name}' offers tool '${descriptor.name}', which another tool already uses; it is left out`,
            ),
          );
          continue;
        }
        seen.add(descriptor.name);
        tools.push(createMcpTool(descriptor, entry.connection));
      }
    }
    return { tools, errors };
  }

  /** Stops every server. A later tool call starts its server again. */
  async close(): Promise<void> {
    await Promise.all(this.#connections.map((connection) => connection.close()));
  }
}

/** A toolset for an MCP configuration (reference `agent.mcp_config`). */
export function createMcpToolset(config: McpConfigInput | McpConfig, options: McpToolsetOptions = {}): McpToolset {
  return new McpToolset(config, options);
}
