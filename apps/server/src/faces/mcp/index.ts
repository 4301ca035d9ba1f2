export { createManagerHost, type ManagerHostOptions } from './manager-host.js';
export type {
  McpConversation,
  McpConversationHost,
  McpConversationSummary,
  McpConversationView,
  McpPendingAction,
} from './mcp-host.js';
export { progressMessageOf } from './mcp-progress.js';
export { MCP_PATH, type McpRoutesOptions, registerMcpRoutes } from './mcp-routes.js';
export { McpToolCallError, type McpToolCallReason } from './mcp-tool-call-error.js';
export { callMcpTool, type McpToolName, mcpToolDescriptions } from './mcp-tools.js';
export { type McpStdioServer, serveMcpOverStdio } from './serve-mcp-stdio.js';
