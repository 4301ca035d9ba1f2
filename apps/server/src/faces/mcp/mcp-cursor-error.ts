import { ServerError } from '../../errors.js';

/**
 * A list request (`tools/list`, `resources/list`, `resources/templates/list`) whose `cursor` this server never gave
 * that list: made up, empty, not a string, or another list's. Every list method answers it alike, as MCP pagination
 * asks: JSON-RPC -32602 (Invalid params), `data: { reason: 'invalid_cursor', cursor }`.
 */
export class McpCursorError extends ServerError {
  declare readonly code: 'mcp_invalid_cursor';
  readonly reason = 'invalid_cursor' as const;
  readonly details: Readonly<Record<string, unknown>>;
  /** JSON-RPC's Invalid params. */
  readonly rpcCode = -32602;

  constructor(method: string, cursor: unknown, why: string) {
    super('mcp_invalid_cursor', `${method}: ${JSON.stringify(cursor)} is not a cursor this server gave (${why})`);
    this.details = { cursor };
  }
}
