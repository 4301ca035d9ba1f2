import { AgentError } from '../errors.js';

/** One tool an MCP server offered that was left out, and why. */
export interface RefusedMcpTool {
  name: string;
  reason: string;
}

/**
 * An MCP server offered tools whose names cannot be offered to the model: a built-in's name or alias (`terminal`,
 * `finish`, `bash`, ...), a name another server also offers, a name it offers twice, or a name providers reject.
 * Those tools are left out (the server's other tools stay); one error per server names them all.
 */
export class McpToolNameError extends AgentError {
  readonly server: string;
  /** The names of the tools left out. */
  readonly tools: readonly string[];
  readonly refused: readonly RefusedMcpTool[];

  constructor(server: string, refused: readonly RefusedMcpTool[]) {
    super(
      'mcp_tool_name_collision',
      `MCP server '${server}' offers ${refused.length === 1 ? 'a tool' : `${refused.length} tools`} that ${refused.length === 1 ? 'is' : 'are'} left out: ${refused.map((tool) => `'${tool.name}' (${tool.reason})`).join('; ')}. Rename ${refused.length === 1 ? 'it' : 'them'} in the server, or remove the server from mcp_config.`,
    );
    this.server = server;
    this.tools = refused.map((tool) => tool.name);
    this.refused = refused;
  }
}
