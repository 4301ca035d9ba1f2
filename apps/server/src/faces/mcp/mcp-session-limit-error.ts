import { ServerError } from '../../errors.js';

/**
 * Which bound an `initialize` met: the live sessions of the whole server (`mcpMaxSessions`), or those of the
 * caller's principal (`mcpMaxSessionsPerPrincipal`).
 */
export type McpSessionLimit = 'server' | 'principal';

const SETTINGS: Record<McpSessionLimit, string> = {
  server: 'mcpMaxSessions, env X_SERVER_MCP_MAX_SESSIONS',
  principal: 'mcpMaxSessionsPerPrincipal, env X_SERVER_MCP_MAX_SESSIONS_PER_PRINCIPAL',
};

/**
 * An `initialize` refused because the MCP face holds as many live sessions as it may, in all (`limit: 'server'`) or
 * for the caller's principal (`limit: 'principal'`). The route answers it with HTTP 503 and a JSON-RPC error
 * (-32000) naming the limit; no existing session is touched.
 */
export class McpSessionLimitError extends ServerError {
  declare readonly code: 'mcp_session_limit';
  readonly limit: McpSessionLimit;
  /** The bound that was met: how many live sessions `limit` allows. */
  readonly maxSessions: number;

  constructor(limit: McpSessionLimit, maxSessions: number) {
    const holder = limit === 'server' ? 'this server keeps' : 'one principal (session key) may hold';
    super(
      'mcp_session_limit',
      `MCP session limit reached: ${holder} at most ${maxSessions} live sessions (${SETTINGS[limit]}); end an unused one (DELETE /api/mcp) or retry once an idle one has expired`,
    );
    this.limit = limit;
    this.maxSessions = maxSessions;
  }
}
