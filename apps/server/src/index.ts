export {
  type AgentRequest,
  agentRequestSchema,
  type StartConversationRequest,
  sendMessageRequestSchema,
  startConversationRequestSchema,
} from './api/request-schemas.js';
export {
  logLevelSchema,
  resolveServerConfig,
  type S3Config,
  type ServerConfig,
  type ServerConfigInput,
  s3ConfigSchema,
  serverConfigSchema,
} from './config/server-config.js';
export { ServerConfigError } from './config/server-config-error.js';
export { ConversationManager, type ConversationManagerOptions } from './conversations/conversation-manager.js';
export { ConversationBusyError } from './conversations/errors/conversation-busy-error.js';
export { ConversationDamagedError } from './conversations/errors/conversation-damaged-error.js';
export { ConversationDeletedError } from './conversations/errors/conversation-deleted-error.js';
export { ConversationNotFoundError } from './conversations/errors/conversation-not-found-error.js';
export { EventNotFoundError } from './conversations/errors/event-not-found-error.js';
export { InvalidConversationIdError } from './conversations/errors/invalid-conversation-id-error.js';
export { InvalidRequestError } from './conversations/errors/invalid-request-error.js';
export { MalformedBodyError } from './conversations/errors/malformed-body-error.js';
export { UnsupportedCharsetError } from './conversations/errors/unsupported-charset-error.js';
export { ManagedConversation } from './conversations/managed-conversation.js';
export { RESTART_ERROR_TEXT } from './conversations/restart-recovery.js';
export { MissingDependencyError } from './dependencies/missing-dependency-error.js';
export { ServerError } from './errors.js';
export { QUALIFIED_EVENT_KINDS } from './events/event-filter.js';
export {
  MCP_PATH,
  type McpConversation,
  type McpConversationHost,
  type McpConversationPage,
  type McpConversationSummary,
  type McpConversationView,
  McpCursorError,
  type McpListPosition,
  type McpPendingAction,
  McpResourceError,
  type McpResourceReason,
  type McpSessionLimits,
  type McpStdioServer,
  McpToolCallError,
  type McpToolCallReason,
  type McpWatchOptions,
  serveMcpOverStdio,
} from './faces/mcp/index.js';
export { SandboxRequiredError } from './sandboxing/sandbox-required-error.js';
export { resolveServerSandboxing, type ServerSandboxing } from './sandboxing/server-sandboxing.js';
export {
  createHostOriginCheck,
  DataDirExposedError,
  type HostOriginPolicy,
  type HostOriginProblem,
  type HostOriginRefusal,
  InsecureBindError,
  isLoopbackHost,
  isPublicRoute,
  type PublicRouteConfig,
  redactUrl,
  SystemDirectoryExposedError,
} from './security/index.js';
export { type BuildServerOptions, type BuiltServer, buildServer, type RegisteredRoute } from './server.js';
export { type StartedServer, type StartServerOptions, startServer } from './start-server.js';
export {
  type EnvTelemetry,
  setupTelemetryFromEnv,
  type TelemetryOptions,
  traceIdOf,
  UnsupportedOtlpProtocolError,
} from './telemetry/index.js';
export {
  attachEventSockets,
  CloseCode,
  type EventSocketHost,
  type EventSocketOptions,
  type EventSockets,
  InvalidClientFrameError,
  type SocketConversation,
} from './websocket/index.js';
export { WorkspaceGoneError } from './workspace/workspace-gone-error.js';
export { WorkspacePathError } from './workspace/workspace-path-error.js';
