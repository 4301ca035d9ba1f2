// Kept apart from mcp-sessions.ts: buildServer's options name this type, and its published declaration must not
// reach the optional @modelcontextprotocol/sdk's types (a project without it typechecks with skipLibCheck false).

/** The bounds of one session; defaults suit a server, tests make them small. */
export interface McpSessionLimits {
  /** Idle time (no request, no open stream) after which a session ends. */
  idleMs?: number | undefined;
  /** The replay buffer's size (`SessionEventStore`). */
  maxStoredBytes?: number | undefined;
  /** What may pile up towards a stream its client does not read (`ResponseBackpressure`). */
  maxBlockedBytes?: number | undefined;
  /**
   * The most live sessions (those initialized, and those being initialized); an `initialize` beyond them is refused
   * (`McpSessionLimitError`), never at the expense of a live one. Default `DEFAULT_MAX_SESSIONS`.
   */
  maxSessions?: number | undefined;
  /**
   * The most live sessions one principal (session key) may hold, within `maxSessions`: one key opening sessions
   * can then not take every slot and lock the other keys out. Default `maxSessions` (no share of its own).
   */
  maxSessionsPerPrincipal?: number | undefined;
  /** The clock idleness is measured with. */
  now?: (() => number) | undefined;
}

/**
 * The share of the live MCP sessions one principal may hold when the server config does not set it
 * (`mcpMaxSessionsPerPrincipal`): a quarter of `maxSessions` (at least one) on a server with session keys, so no key
 * fills the cap alone; `maxSessions` on a server without keys, whose callers are all one principal (`local`).
 */
export function defaultMaxSessionsPerPrincipal(maxSessions: number, hasKeys: boolean): number {
  return hasKeys ? Math.max(1, Math.floor(maxSessions / 4)) : maxSessions;
}
