import { ServerError } from '../../errors.js';

/** Why a tool call was refused; clients read it from the JSON-RPC error's `data.reason`. */
export type McpToolCallReason =
  | 'invalid_arguments'
  | 'unknown_tool'
  | 'conversation_not_found'
  | 'conversation_deleted'
  | 'no_default_agent'
  | 'no_pending_actions'
  | 'pending_actions'
  | 'conversation_running'
  | 'principal_not_allowed';

/**
 * JSON-RPC codes (MCP uses JSON-RPC's): the arguments were wrong, or the call does not fit the conversation's state.
 * Only the protocol errors are sent with theirs; a tool execution error keeps its code for the record.
 */
const RPC_CODES: Record<McpToolCallReason, number> = {
  invalid_arguments: -32602,
  unknown_tool: -32602,
  conversation_not_found: -32602,
  conversation_deleted: -32600,
  no_default_agent: -32602,
  no_pending_actions: -32600,
  pending_actions: -32600,
  conversation_running: -32600,
  principal_not_allowed: -32600,
};

/**
 * The refusals that are tool execution errors (MCP 2025-11-25: errors the model that called the tool can act on, its
 * arguments included): arguments the tool's schema refuses, a conversation id naming none (or one deleted while the
 * call went on), a start with no agent to start, and calls the conversation's state does not allow now (actions waiting for confirmation, none waiting, a run
 * going on elsewhere). The model reads why in the result and calls again, or another tool (`list_conversations`,
 * `confirm_actions`). The others are protocol errors: a tool that does not exist (as MCP says), and a caller without
 * the right to decide (as REST's 403: the model can do nothing about it, and a client must not take it for a tool
 * failing).
 */
const EXECUTION_ERRORS: ReadonlySet<McpToolCallReason> = new Set<McpToolCallReason>([
  'invalid_arguments',
  'conversation_not_found',
  'conversation_deleted',
  'no_default_agent',
  'no_pending_actions',
  'pending_actions',
  'conversation_running',
]);

/**
 * A tool call the MCP face refuses. A tool execution error (`isExecutionError`) reaches the client as a tool result
 * with `isError`, its message as text and `structuredContent: { reason, ...details }`; a protocol error as a JSON-RPC
 * error: `code` -32602 (Invalid params: an unknown tool) or -32600 (the caller's rights do not allow it),
 * `data: { reason, ...details }`.
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

  /** The JSON-RPC error code this refusal is sent with, when it is a protocol error. */
  get rpcCode(): number {
    return RPC_CODES[this.reason];
  }

  /** Whether it is a tool execution error, answered as a tool result with `isError` (not a JSON-RPC error). */
  get isExecutionError(): boolean {
    return EXECUTION_ERRORS.has(this.reason);
  }
}
