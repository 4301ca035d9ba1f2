export { InvalidMcpConfigError } from './invalid-mcp-config-error.js';
export {
  effectiveMcpTransport,
  type McpConfig,
  type McpConfigInput,
  type McpServerConfig,
  type McpServerConfigInput,
  type McpTransport,
  mcpConfigToJSON,
  mcpServerConfigSchema,
  parseMcpConfig,
} from './mcp-config.js';
export { errorObservation, MCP_OBSERVATION_KIND, observationFromCallResult } from './mcp-observation.js';
export { McpServerError } from './mcp-server-error.js';
export { MCP_ACTION_KIND, MCP_TOOL_KIND } from './mcp-tool.js';
export { McpToolNameError, type RefusedMcpTool } from './mcp-tool-name-error.js';
export {
  createMcpToolset,
  type McpStartOptions,
  type McpStartResult,
  McpToolset,
  type McpToolsetOptions,
} from './mcp-toolset.js';
