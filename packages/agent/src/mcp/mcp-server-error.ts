import { AgentError } from '../errors.js';

/** An MCP server could not be started, listed or called (missing command, crash, timeout, malformed replies). */
export class McpServerError extends AgentError {
  readonly server: string;
  /** What failed: starting the server (and listing its tools), or a tool call. */
  readonly during: 'start' | 'call';

  constructor(
    server: string,
    message: string,
    options?: { cause?: unknown; timeout?: boolean; during?: 'start' | 'call' },
  ) {
    super(options?.timeout === true ? 'mcp_timeout' : 'mcp_server_error', message, options);
    this.server = server;
    this.during = options?.during ?? 'start';
  }
}
