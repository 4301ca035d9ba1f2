import { ServerError } from '../../errors.js';

/** Why a resource request was refused; clients read it from the JSON-RPC error's `data.reason`. */
export type McpResourceReason = 'invalid_resource_uri' | 'resource_not_found' | 'too_many_subscriptions';

/** JSON-RPC codes: MCP's -32002 (Resource not found), JSON-RPC's -32602 (Invalid params), -32600 (Invalid request). */
const RPC_CODES: Record<McpResourceReason, number> = {
  invalid_resource_uri: -32602,
  resource_not_found: -32002,
  too_many_subscriptions: -32600,
};

/**
 * A `resources/read` or `resources/subscribe` the MCP face refuses. It reaches the client as a
 * JSON-RPC error: `code` -32002 (no such conversation), -32602 (a URI of no form this server gives) or
 * -32600 (the session holds as many subscriptions as it may), `data: { reason, uri, ... }`.
 */
export class McpResourceError extends ServerError {
  declare readonly code: 'mcp_resource_refused';
  readonly reason: McpResourceReason;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(reason: McpResourceReason, message: string, details: Record<string, unknown> = {}) {
    super('mcp_resource_refused', message);
    this.reason = reason;
    this.details = details;
  }

  /** The JSON-RPC error code this refusal is sent with. */
  get rpcCode(): number {
    return RPC_CODES[this.reason];
  }
}
