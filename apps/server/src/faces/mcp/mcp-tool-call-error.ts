import { ServerError } from '../../errors.js';

/** Why a tool call was refused; clients read it from the JSON-RPC error's `data.reason`. */
export type McpToolCallReason =
  | 'invalid_arguments'
  | 'unknown_tool'
  | 'conversation_not_found'
  | 'no_default_agent'
  | 'no_pending_actions'
  | 'pending_actions'
  | 'conversation_running'
  | 'principal_not_allowed';

/** JSON-RPC codes (MCP uses JSON-RPC's): the arguments were wrong, or the call does not fit the conversation's state. */
const RPC_CODES: Record<McpToolCallReason, number> = {
  invalid_arguments: -32602,
  unknown_tool: -32602,
  conversation_not_found: -32602,
  no_default_agent: -32602,
  no_pending_actions: -32600,
  pending_actions: -32600,
  conversation_running: -32600,
  principal_not_allowed: -32600,
};

/**
 * A tool call the MCP face refuses. It reaches the client as a JSON-RPC error: `code` -32602 (Invalid params: an
 * unknown tool or conversation) or -32600 (the conversation's state, or the caller's rights, do not allow it),
 * `data: { reason, ...details }`; but `invalid_arguments` (the tool's input schema refuses them) is a tool result with
 * `isError` and `structuredContent: { reason, ...details }`, as MCP 2025-11-25 asks, so the model can correct them.
 */
export class McpToolCallError extends ServerError {
  declare readonly code: 'mcp_tool_call_refused';
  readonly reason: McpToolCallReason;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(reason: McpToolCallReason, message: string, details: Record<string, unknown> = {}) {
    super('mcp_tool_call_refused', message);
    this.reason = reason;
    this.details = details;
  }

  /** The JSON-RPC error code this refusal is sent with. */
  get rpcCode(): number {
    return RPC_CODES[this.reason];
  }
}
