export { createManagerHost, type ManagerHostOptions } from './manager-host.js';
export { McpCursorError } from './mcp-cursor-error.js';
export type {
  McpConversation,
  McpConversationHost,
  McpConversationPage,
  McpConversationSummary,
  McpConversationView,
  McpListPosition,
  McpPendingAction,
  McpWatchOptions,
} from './mcp-host.js';
export { progressMessageOf } from './mcp-progress.js';
export { McpResourceError, type McpResourceReason } from './mcp-resource-error.js';
export { CONVERSATION_URI_TEMPLATE, EVENTS_URI_TEMPLATE, parseResourceUri } from './mcp-resources.js';
export { MCP_PATH, type McpRoutesOptions, registerMcpRoutes } from './mcp-routes.js';
export { defaultMaxSessionsPerPrincipal, type McpSessionLimits } from './mcp-session-limits.js';
export { McpToolCallError, type McpToolCallReason } from './mcp-tool-call-error.js';
export { callMcpTool, type McpToolName, mcpToolDescriptions } from './mcp-tools.js';
export { type McpStdioServer, serveMcpOverStdio } from './serve-mcp-stdio.js';
