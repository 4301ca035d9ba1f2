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
  /** The clock idleness is measured with. */
  now?: (() => number) | undefined;
}
