export {
  type FileChange,
  fileChangeSchema,
  type PatchCommit,
  patchCommitSchema,
} from './apply-patch/patch-commit.js';
export { PatchError } from './apply-patch/patch-error.js';
export {
  APPLY_PATCH_TOOL_DESCRIPTION,
  type ApplyPatchAction,
  type ApplyPatchToolOptions,
  applyPatchParameters,
  applyPatchTool,
  createApplyPatchTool,
} from './apply-patch-tool.js';
export {
  type ChatTool,
  type ChatToolOptions,
  securityRiskParameterDescription,
  summaryParameterDescription,
  toolToChatTool,
  toolToDefinition,
} from './chat-tool.js';
export {
  CLIENT_TOOL_KIND,
  CLIENT_TOOL_OBSERVATION_KIND,
  type ClientToolSpec,
  clientToolSpecSchema,
  createClientTool,
} from './client-tool.js';
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
export {
  createGlobTool,
  GLOB_TOOL_DESCRIPTION,
  type GlobAction,
  type GlobToolOptions,
  globParameters,
  globTool,
  splitGlobPattern,
} from './glob-tool.js';
export {
  createGrepTool,
  GREP_TOOL_DESCRIPTION,
  type GrepAction,
  type GrepToolOptions,
  grepParameters,
  grepTool,
} from './grep-tool.js';
export { InvalidToolError } from './invalid-tool-error.js';
export {
  createInvokeSkillTool,
  INVOKE_SKILL_TOOL_DESCRIPTION,
  INVOKE_SKILL_TOOL_KIND,
  type InvokeSkillAction,
  invokeSkillParameters,
  type SkillSource,
} from './invoke-skill-tool.js';
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
