export {
  type ChatTool,
  type ChatToolOptions,
  securityRiskParameterDescription,
  summaryParameterDescription,
  toolToChatTool,
  toolToDefinition,
} from './chat-tool.js';
export {
  type BuiltinToolName,
  builtinToolNames,
  type DefaultToolsOptions,
  defaultTools,
} from './default-tools.js';
export {
  buildToolEnvironment,
  defaultInheritedVariables,
  isSensitiveVariableName,
  type ToolEnvironment,
  ToolEnvironmentError,
} from './environment/index.js';
export {
  createFileEditorTool,
  type FileEditorAction,
  type FileEditorToolOptions,
  fileEditorParameters,
} from './file-editor-tool.js';
export { finishParameters, finishTool } from './finish-tool.js';
export { InvalidToolError } from './invalid-tool-error.js';
export {
  type InvalidToolCall,
  type ParsedToolCall,
  type ParseToolCallOptions,
  parseToolCall,
  type ToolCallParseResult,
} from './parse-tool-call.js';
export { maskSecrets, secretEnvFor, secretPlaceholder } from './secrets.js';
export {
  createTaskTrackerTool,
  formatTaskList,
  type TaskItem,
  type TaskTrackerAction,
  taskItemSchema,
  tasksFileName,
  taskTrackerParameters,
} from './task-tracker-tool.js';
export {
  createTerminalTool,
  type TerminalAction,
  type TerminalToolOptions,
  terminalParameters,
} from './terminal-tool.js';
export { thinkParameters, thinkTool } from './think-tool.js';
export {
  type ConversationFiles,
  defineTool,
  pascalCase,
  type Tool,
  type ToolAnnotations,
  type ToolContent,
  type ToolContext,
  type ToolConversation,
  type ToolResult,
  type ToolSpec,
  textContent,
} from './tool.js';
export { ToolExecutionError } from './tool-execution-error.js';
export { ToolNameCollisionError } from './tool-name-collision-error.js';
export { assertUniqueToolNames, claimedToolNames, toolNameKey } from './tool-names.js';
