// The public API, named export by export; the tools and the secrets are named in their folders' index.ts
// (explicit lists too), so that this file stays under the 400-line limit.
export { Agent } from './agent/agent.js';
export { AgentExtensions, type ExtensionsStart } from './agent/agent-extensions.js';
export type { AgentOptions } from './agent/agent-options.js';
export { createAgent, OFFLINE_NOTICE } from './agent/create-agent.js';
export type { CreateAgentOptions } from './agent/create-agent-options.js';
export { MODEL_ENVIRONMENT_VARIABLES, NoModelError } from './agent/errors/no-model-error.js';
export type { StepContext } from './agent/step-context.js';
export { DEFAULT_SYSTEM_PROMPT } from './agent/system-prompt.js';
export { normalizeToolSpecName } from './agent/tool-spec-name.js';
export * from './approvals/index.js';
export {
  BUDGET_FILE,
  type Budget,
  type BudgetInput,
  type BudgetRecord,
  type BudgetStatus,
  type BudgetStop,
  budgetRecordSchema,
  budgetSchema,
  budgetStopSchema,
  InvalidBudgetError,
  parseBudget,
  parseBudgetUsd,
  readBudgetRecord,
  spendOf,
} from './budgets/index.js';
export {
  CHECKPOINT_KEY,
  CHECKPOINTS_DIR,
  CheckpointDamagedError,
  type CheckpointFile,
  type CheckpointManifest,
  type CheckpointRecord,
  CheckpointStore,
  CheckpointWriteError,
  checkpointFileSchema,
  checkpointId,
  checkpointManifestSchema,
  checkpointRecordSchema,
  IGNORED_NAMES,
  type RestoreResult,
  restoreWorkspace,
  type SkippedFile,
  snapshotWorkspace,
  WorkspaceCheckpoints,
} from './checkpoints/index.js';
export {
  type BranchComparison,
  type ComparableConversation,
  type ComparedAction,
  type ConversationComparison,
  compareConversations,
  diffManifests,
  type FileChanges,
} from './compare/index.js';
export { type Condenser, type CondenserContext, isCondensation } from './condenser/condenser.js';
export { type CondenserFromJSONOptions, condenserFromJSON } from './condenser/condenser-from-json.js';
export { InvalidCondenserConfigError } from './condenser/invalid-condenser-config-error.js';
export {
  type CondensationReason,
  defaultCondenser,
  LLMSummarizingCondenser,
} from './condenser/llm-summarizing-condenser.js';
export {
  type LLMSummarizingCondenserOptions,
  type LLMSummarizingCondenserSettings,
  llmSummarizingCondenserSettingsSchema,
} from './condenser/llm-summarizing-condenser-options.js';
export { NoCondensationAvailableError } from './condenser/no-condensation-available-error.js';
export { NoOpCondenser } from './condenser/no-op-condenser.js';
export { PipelineCondenser } from './condenser/pipeline-condenser.js';
export { type CondensationRequirement, RollingCondenser } from './condenser/rolling-condenser.js';
export { renderSummarizingPrompt } from './condenser/summarizing-prompt.js';
export {
  approximateTokenCounter,
  countEventTokens,
  type PrefixSearchOptions,
  shortestPrefixAboveTokenCount,
  suffixLengthForTokenReduction,
  type TokenCounter,
} from './condenser/token-counter.js';
export {
  type AlwaysConfirm,
  alwaysConfirmSchema,
  type ConfirmationPolicy,
  type ConfirmationPolicyInput,
  type ConfirmRisky,
  confirmationPolicySchema,
  confirmRiskySchema,
  isConfirmationPolicyActive,
  type NeverConfirm,
  neverConfirmSchema,
  parseConfirmationPolicy,
  shouldConfirm,
} from './confirmation/confirmation-policy.js';
export {
  type ConfirmationPolicyIssue,
  InvalidConfirmationPolicyError,
} from './confirmation/invalid-confirmation-policy-error.js';
export { type RequiresConfirmationOptions, requiresConfirmation } from './confirmation/requires-confirmation.js';
export { llmRiskAnalyzer, type SecurityAnalyzer } from './confirmation/security-analyzer.js';
export { compareRisk, isRiskier, type KnownSecurityRisk } from './confirmation/security-risk.js';
export { UnknownRiskComparisonError } from './confirmation/unknown-risk-comparison-error.js';
export type { SecurityAnalyzerInput } from './conversation/analyzer-setting.js';
export { Conversation } from './conversation/conversation.js';
export type {
  ConversationListener,
  ConversationOptions,
  RunOptions,
  RunResult,
} from './conversation/conversation-options.js';
export type { EventEdit } from './conversation/edit-event.js';
export { CondenserUnavailableError } from './conversation/errors/condenser-unavailable-error.js';
export { ConversationAlreadyRunningError } from './conversation/errors/conversation-already-running-error.js';
export { ConversationClosedError } from './conversation/errors/conversation-closed-error.js';
export { ConversationExistsError } from './conversation/errors/conversation-exists-error.js';
export { ConversationNotFoundError } from './conversation/errors/conversation-not-found-error.js';
export { ConversationRunError } from './conversation/errors/conversation-run-error.js';
export { CorruptConversationError } from './conversation/errors/corrupt-conversation-error.js';
export { InvalidEventEditError } from './conversation/errors/invalid-event-edit-error.js';
export { InvalidToolCallError } from './conversation/errors/invalid-tool-call-error.js';
export { NoUserMessageError } from './conversation/errors/no-user-message-error.js';
export { UnknownEventError } from './conversation/errors/unknown-event-error.js';
export type { ForkOptions } from './conversation/fork-options.js';
export { INTERRUPTED_ACTION_TEXT, interruptedActionEvent } from './conversation/ownership/interrupted-action.js';
export {
  conversationDirName,
  defaultPersistenceDir,
  hyphenateConversationId,
} from './conversation/persistence-layout.js';
export type { RunHost } from './conversation/run-host.js';
export { RUN_STATE_KEY, type RunRecord } from './conversation/run-lifecycle.js';
export type { StateChange, StateChangeListener } from './conversation/state-changes.js';
export * from './delegation/index.js';
export { MissingDependencyError } from './dependencies/missing-dependency-error.js';
export { AgentError } from './errors.js';
export {
  type BaselineComparison,
  type CaseComparison,
  caseFromConversation,
  compareToBaseline,
  costUnder,
  createScorer,
  defaultEvalAgent,
  durationUnder,
  type EvalAgentContext,
  type EvalAgentFactory,
  type EvalCase,
  type EvalCaseResult,
  EvalConversationNotFoundError,
  type EvalReport,
  type EvalRun,
  type EvalRunResult,
  type EvalSuite,
  type EvalToolCall,
  type ExpectedToolCall,
  evalCaseResultSchema,
  evalCaseSchema,
  evalReportSchema,
  evalRunFromEvents,
  evalRunResultSchema,
  evalSuiteSchema,
  filesWithin,
  finalAnswerMatches,
  InvalidEvalBaselineError,
  InvalidEvalSuiteError,
  type JudgeUsage,
  llmJudge,
  loadBaseline,
  loadSuite,
  locateConversation,
  noErrors,
  parseEvalSuite,
  passAtK,
  passHatK,
  promoteConversation,
  type RecordedConversation,
  type ReplayOutcome,
  type RunEvalSuiteOptions,
  readRecordedConversation,
  renderHtmlReport,
  replayRecording,
  runEvalSuite,
  type ScoreResult,
  type Scorer,
  type ScorerConfig,
  type ScorerContext,
  type ScorerType,
  scoreResultSchema,
  scoreRun,
  scorerConfigSchema,
  scorerTypes,
  type TrajectoryMatch,
  trajectory,
} from './eval/index.js';
export {
  createTransferTool,
  ESCALATE_TOOL_NAME,
  escalateTool,
  InvalidAgentRosterError,
  TRANSFER_TOOL_NAME,
  type TransferTarget,
  UnknownAgentError,
} from './handoff/index.js';
export {
  type CommandHookDefinition,
  ConversationHooks,
  commandHookSchema,
  DEFAULT_HOOK_TIMEOUT_SECONDS,
  defaultHookConfigPaths,
  emptyHookConfig,
  type FunctionHookDefinition,
  findHookConfigFile,
  HOOK_INHERITED_ENV,
  type HookConfig,
  type HookConfigField,
  type HookConfigInput,
  type HookDefinition,
  type HookDefinitionInput,
  type HookEventType,
  type HookFunction,
  type HookInput,
  type HookMatcher,
  type HookMatcherInput,
  type HookOutput,
  type HookResult,
  HookRunner,
  type HookRunnerOptions,
  type HookRunOutcome,
  type HookRunRequest,
  hookConfigToJSON,
  hookEnvironment,
  hookEventTypes,
  hookMatcherMatches,
  InvalidHookConfigError,
  isHookConfigEmpty,
  loadHookConfigFile,
  mergeHookConfigs,
  parseHookConfig,
  runHook,
  STOP_HOOK_FEEDBACK_PREFIX,
} from './hooks/index.js';
export {
  eventsToLangChainMessages,
  fromLangChainMessages,
  fromLangChainStoredMessages,
  type LangChainContentBlock,
  type LangChainInvalidToolCall,
  type LangChainMessage,
  type LangChainStoredMessage,
  type LangChainToolCall,
  toLangChainMessages,
  toLangChainStoredMessages,
} from './langchain/index.js';
export { LLMAbortedError } from './llm/errors/llm-aborted-error.js';
export { LLMAuthenticationError } from './llm/errors/llm-authentication-error.js';
export { LLMBadRequestError } from './llm/errors/llm-bad-request-error.js';
export { LLMContextWindowExceededError } from './llm/errors/llm-context-window-exceeded-error.js';
export { LLMError, type LLMErrorCode, type LLMErrorDetails } from './llm/errors/llm-error.js';
export { LLMInvalidRecordingError } from './llm/errors/llm-invalid-recording-error.js';
export { LLMRateLimitError } from './llm/errors/llm-rate-limit-error.js';
export { LLMScriptExhaustedError } from './llm/errors/llm-script-exhausted-error.js';
export { LLMServiceError } from './llm/errors/llm-service-error.js';
export { LLMTimeoutError } from './llm/errors/llm-timeout-error.js';
export {
  type LLM,
  type LLMDelta,
  type LLMFinishReason,
  type LLMMessage,
  type LLMRequest,
  type LLMResponse,
  type LLMTool,
  normalizeMessages,
} from './llm/llm.js';
export type { BaseLLMConfig } from './llm/llm-config.js';
export {
  addTokenUsage,
  type ConversationStats,
  type ConversationStatsSnapshot,
  type Cost,
  combineMetrics,
  conversationStatsSchema,
  conversationStatsSnapshotSchema,
  costSchema,
  emptyMetrics,
  emptyStats,
  emptyTokenUsage,
  type Metrics,
  type MetricsSnapshot,
  metricsSchema,
  metricsSnapshotSchema,
  type ResponseLatency,
  type ResponseRecord,
  recordResponse,
  recordStatsResponse,
  responseLatencySchema,
  statsSnapshot,
  type TokenUsage,
  tokenUsageSchema,
} from './llm/metrics.js';
export {
  builtInDemoScript,
  createOfflineLLM,
  type OfflineLLMOptions,
  type OfflineScript,
  type OfflineTurn,
} from './llm/offline-llm.js';
export { createOpenAILLM, type LLMConfig } from './llm/openai-llm.js';
export { type Pricing, pricingFor, pricingTable, registerPricing } from './llm/pricing.js';
export { type RecordedResponse, recordedResponseSchema, recordingFromEvents } from './llm/recording.js';
export { defaultModel, type LLMOverrides, resolveLLMFromEnv } from './llm/resolve-llm-from-env.js';
export { withUsageId } from './llm/with-usage-id.js';
export {
  createMcpToolset,
  effectiveMcpTransport,
  errorObservation as mcpErrorObservation,
  InvalidMcpConfigError,
  MCP_ACTION_KIND,
  MCP_OBSERVATION_KIND,
  MCP_TOOL_KIND,
  type McpConfig,
  type McpConfigInput,
  type McpServerConfig,
  type McpServerConfigInput,
  McpServerError,
  type McpStartOptions,
  type McpStartResult,
  McpToolNameError,
  McpToolset,
  type McpToolsetOptions,
  type McpTransport,
  mcpConfigToJSON,
  mcpServerConfigSchema,
  observationFromCallResult,
  parseMcpConfig,
  type RefusedMcpTool,
} from './mcp/index.js';
export {
  type ConfinedPath,
  checkPathText,
  confineToRoots,
  type FileContent,
  isPathInside,
  type OpenedRegularFile,
  openOrCreateDirectory,
  openRegularFile,
  openVerifiedDirectory,
  openWorkspaceEntry,
  readRegularFile,
  replaceFileAtomically,
  resolveRealLocation,
  resolveWorkspaceDirectory,
  type VerifiedDirectory,
  type WalkedFile,
  type WalkOptions,
  type WalkResult,
  type WorkspaceDirectory,
  type WorkspaceEntry,
  WorkspacePathError,
  type WorkspacePathProblem,
  walkWorkspaceFiles,
} from './paths/index.js';
export { descendantPids, killProcessTree } from './processes/index.js';
export {
  type AnthropicLLMConfig,
  type AnthropicPromptCaching,
  type CreateLLMOptions,
  createAnthropicLLM,
  createGeminiLLM,
  createLLM,
  createOpenAIResponsesLLM,
  type GeminiContent,
  type GeminiLLMConfig,
  type GeminiPart,
  type GeminiRendered,
  type OpenAIResponsesLLMConfig,
  type ProviderName,
  providerForModel,
  providerNames,
  toGeminiContents,
} from './providers/index.js';
export {
  createRecallTool,
  DEFAULT_RECALL_LIMITS,
  InvalidRecallError,
  MAX_RECALL_RESULTS,
  RECALL_TOOL_NAME,
  type RecallLimits,
  type RecallParameters,
  type RecallResult,
  type RecallToolOptions,
  recallFromHistory,
  recallParameters,
  withRecallTool,
} from './recall/index.js';
export {
  type BwrapArgsOptions,
  buildBwrapArgs,
  type CreateSandboxOptions,
  createSandbox,
  type DeniedConnection,
  detectSandboxSupport,
  type HostPattern,
  InvalidSandboxPolicyError,
  isHostAllowed,
  type PreparedCommand,
  parseHostPattern,
  type RunSandboxedOptions,
  runSandboxed,
  type Sandbox,
  type SandboxCommand,
  SandboxCommandError,
  SandboxLimitError,
  type SandboxLimitKind,
  type SandboxLimits,
  type SandboxNetwork,
  type SandboxPolicy,
  type SandboxPolicyInput,
  type SandboxRunResult,
  type SandboxSpawnOptions,
  type SandboxSupport,
  SandboxUnavailableError,
  type SystemEntry,
  sandboxLimitsSchema,
  sandboxNetworkSchema,
  sandboxPolicySchema,
} from './sandbox/index.js';
export { createUnsandboxedSandbox, type UnsandboxedOptions, warnUnsandboxedOnce } from './sandbox/unsandboxed.js';
export type { SandboxAccess } from './sandboxing/sandbox-access.js';
export {
  lendSandbox,
  openDefaultSandbox,
  type SandboxOpener,
  type SandboxRequest,
} from './sandboxing/sandbox-opener.js';
export {
  currentSandboxPolicy,
  readSandboxPolicyRecord,
  SANDBOX_POLICY_FILE,
  type SandboxPolicyEntry,
  type SandboxPolicyRecord,
  sandboxPolicyRecordSchema,
} from './sandboxing/sandbox-policy-record.js';
export * from './secrets/index.js';
export * from './session/index.js';
export {
  type AgentContextOptions,
  activateSkills,
  agentContextJsonSchema,
  agentContextToJSON,
  availableSkillsPrompt,
  availableSkillsXml,
  createSkill,
  defaultUserSkillsDir,
  InvalidSkillError,
  isInvocableAgentSkill,
  keywordTriggerSchema,
  type LoadedSkills,
  listedSkills,
  loadProjectSkills,
  loadSkillsFromDir,
  loadUserSkills,
  matchSkillTrigger,
  PROJECT_SKILL_DIRS,
  parseAgentContext,
  parseSkillFile,
  repoContextPrompt,
  type Skill,
  type SkillActivation,
  type SkillInput,
  SkillSet,
  type SkillTrigger,
  skillKeywords,
  skillSchema,
  skillTriggerSchema,
  THIRD_PARTY_SKILL_FILES,
  taskTriggerSchema,
} from './skills/index.js';
export { applyEvent } from './state/apply-event.js';
export {
  type ActiveAgent,
  activeAgentSchema,
  type Escalation,
  escalationSchema,
} from './state/control-state.js';
export {
  type ConversationState,
  conversationStateSchema,
  initialConversationState,
  type PendingAction,
  pendingActionSchema,
} from './state/conversation-state.js';
export { type ExecutionStatus, executionStatusSchema, isTerminalStatus } from './state/execution-status.js';
export { type ResponseUsage, responseUsages } from './state/response-usage.js';
export { stateAt } from './state/state-at.js';
export { type ActionErrorNudge, actionErrorNudge } from './stuck/action-error-nudge.js';
export { stuckEventsEqual } from './stuck/event-equality.js';
export { InvalidStuckThresholdsError } from './stuck/invalid-stuck-thresholds-error.js';
export { isStuck, type StuckPattern } from './stuck/is-stuck.js';
export { StuckDetector } from './stuck/stuck-detector.js';
export {
  DEFAULT_STUCK_THRESHOLDS,
  resolveStuckThresholds,
  type StuckThresholds,
  type StuckThresholdsInput,
  stuckThresholdsSchema,
} from './stuck/stuck-thresholds.js';
export { STUCK_WINDOW_SIZE, stuckWindow } from './stuck/stuck-window.js';
export {
  captureMessageContent,
  configureTelemetry,
  describeLLM,
  GENAI_ATTRIBUTES,
  GENAI_METRICS,
  GENAI_OPERATIONS,
  INSTRUMENTATION_SCOPE,
  type LLMSettings,
  type TelemetryOptions,
  withAgentName,
} from './telemetry/index.js';
export * from './tools/index.js';
