import { findSandboxUnavailable } from '../sandbox/internal/find-sandbox-unavailable.js';
import type { SandboxAccess } from '../sandboxing/sandbox-access.js';
import { type Tool, toolNamePattern } from '../tools/tool.js';
import { toolNameKey } from '../tools/tool-names.js';
import { McpConnection } from './internal/mcp-connection.js';
import { loadMcpSdk } from './internal/mcp-sdk.js';
import type { McpToolDescriptor } from './internal/mcp-tool-descriptor.js';
import { type McpConfig, type McpConfigInput, parseMcpConfig } from './mcp-config.js';
import { McpServerError } from './mcp-server-error.js';
import { createMcpTool } from './mcp-tool.js';
import { McpToolNameError, type RefusedMcpTool } from './mcp-tool-name-error.js';

export interface McpToolsetOptions {
  /** Directory stdio servers start in when their config has no `cwd`. */
  workspace?: string;
  /** Limit of starting each server and listing its tools, in seconds (default 30, as the reference). */
  startTimeout?: number;
  /** Where stdio servers run: the conversation's sandbox (default: each server opens one of the default policy). */
  sandbox?: SandboxAccess;
}

/** What starting the servers gave: their tools, and one error per server that failed or had tools left out. */
export interface McpStartResult {
  tools: Tool[];
  errors: (McpServerError | McpToolNameError)[];
}

export interface McpStartOptions {
  /**
   * Names already taken (by `toolNameKey`, as `claimedToolNames` gives them: the agent's own tools and their
   * aliases), with the tool taking each. A server's tool of such a name is left out.
   */
  reserved?: ReadonlyMap<string, string>;
}

/** Why a server's tool cannot be offered, or undefined when it can. */
function refusal(
  name: string,
  server: string,
  offeredBy: ReadonlyMap<string, readonly string[]>,
  reserved: ReadonlyMap<string, string>,
): string | undefined {
  if (!toolNamePattern.test(name)) return 'not a valid tool name: use 1-64 letters, digits, _ or -';
  const key = toolNameKey(name);
  const owner = reserved.get(key);
  if (owner !== undefined) {
    return owner === name
      ? `the built-in tool '${owner}' has that name`
      : `it would shadow the built-in tool '${owner}'`;
  }
  const servers = offeredBy.get(key) ?? [];
  const others = [...new Set(servers.filter((other) => other !== server))];
  if (others.length > 0) return `also offered by MCP server ${others.map((other) => `'${other}'`).join(', ')}`;
  if (servers.length > 1) return 'offered more than once by this server';
  return undefined;
}

/**
 * The MCP servers of one configuration. `start` launches every enabled server and lists its tools (in parallel);
 * a server that fails becomes an error in the result, never an exception. Servers stay up across steps, a crashed
 * or timed-out server is started again by its next call, and `close` stops them all.
 */
export class McpToolset {
  readonly config: McpConfig;
  readonly #connections: McpConnection[];
  /** Without a conversation's sandbox nothing else would hear that a server had none (see `start`). */
  readonly #standalone: boolean;

  constructor(config: McpConfigInput | McpConfig, options: McpToolsetOptions = {}) {
    this.config = parseMcpConfig(config);
    this.#standalone = options.sandbox === undefined;
    this.#connections = Object.entries(this.config)
      .filter(([, server]) => server.enabled)
      .map(([name, server]) => new McpConnection({ name, server, ...options }));
  }

  /** Names of the servers that will be started (enabled ones). */
  get serverNames(): string[] {
    return this.#connections.map((connection) => connection.name);
  }

  /**
   * Starts the servers and lists their tools. A tool whose name is reserved (see `McpStartOptions.reserved`),
   * offered by more than one server (by none of them: no server can take another's calls), offered twice by one
   * server, or not a valid name is left out; each server with tools left out gets one `McpToolNameError` naming
   * them. The model is never offered two tools of one name. Throws `MissingDependencyError` when
   * `@modelcontextprotocol/sdk` is not installed, and, without a conversation's sandbox (`options.sandbox`),
   * `SandboxUnavailableError` when a stdio server could have none: a host without a sandbox is never one failed
   * server among others (a conversation's sandbox reports it itself: its run fails with it).
   */
  async start(options: McpStartOptions = {}): Promise<McpStartResult> {
    // Without the SDK no server can start: one MissingDependencyError naming it, not one failure per server.
    if (this.#connections.length > 0) await loadMcpSdk();
    const reserved = options.reserved ?? new Map<string, string>();
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
    if (this.#standalone) {
      for (const entry of listed) {
        const unavailable = findSandboxUnavailable(entry.error);
        if (unavailable !== undefined) throw unavailable;
      }
    }
    const offeredBy = new Map<string, string[]>();
    for (const entry of listed) {
      for (const descriptor of entry.descriptors ?? []) {
        const key = toolNameKey(descriptor.name);
        offeredBy.set(key, [...(offeredBy.get(key) ?? []), entry.connection.name]);
      }
    }
    const tools: Tool[] = [];
    const errors: (McpServerError | McpToolNameError)[] = [];
    for (const entry of listed) {
      if (entry.error !== undefined) {
        errors.push(entry.error);
        continue;
      }
      const refused: RefusedMcpTool[] = [];
      const descriptors: McpToolDescriptor[] = entry.descriptors ?? [];
      for (const descriptor of descriptors) {
        const reason = refusal(descriptor.name, entry.connection.name, offeredBy, reserved);
        if (reason === undefined) tools.push(createMcpTool(descriptor, entry.connection));
        else if (!refused.some((tool) => tool.name === descriptor.name))
          refused.push({ name: descriptor.name, reason });
      }
      if (refused.length > 0) errors.push(new McpToolNameError(entry.connection.name, refused));
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
