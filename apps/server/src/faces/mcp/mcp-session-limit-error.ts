import { ServerError } from '../../errors.js';

/**
 * An `initialize` refused because the MCP face holds as many live sessions as it may (`mcpMaxSessions`). The
 * route answers it with HTTP 503 and a JSON-RPC error (-32000) naming the limit; no existing session is touched.
 */
export class McpSessionLimitError extends ServerError {
  declare readonly code: 'mcp_session_limit';
  readonly maxSessions: number;

  constructor(maxSessions: number) {
    super(
      'mcp_session_limit',
      `MCP session limit reached: this server keeps at most ${maxSessions} live sessions (mcpMaxSessions, env X_SERVER_MCP_MAX_SESSIONS); end an unused one (DELETE /api/mcp) or retry once an idle one has expired`,
    );
    this.maxSessions = maxSessions;
  }
}
