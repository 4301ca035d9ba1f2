export { ConversationHooks, type ConversationHooksDeps, STOP_HOOK_FEEDBACK_PREFIX } from './conversation-hooks.js';
export {
  type CommandHookDefinition,
  commandHookSchema,
  DEFAULT_HOOK_TIMEOUT_SECONDS,
  emptyHookConfig,
  type FunctionHookDefinition,
  type HookConfig,
  type HookConfigInput,
  type HookDefinition,
  type HookDefinitionInput,
  type HookMatcher,
  type HookMatcherInput,
  hookConfigToJSON,
  hookDisplayCommand,
  isHookConfigEmpty,
  mergeHookConfigs,
  parseHookConfig,
} from './hook-config.js';
export { HOOK_INHERITED_ENV, hookEnvironment } from './hook-environment.js';
export {
  type HookConfigField,
  type HookEventType,
  hookConfigFields,
  hookEventTypeSchema,
  hookEventTypes,
} from './hook-event-type.js';
export type { HookFunction, HookInput, HookOutput } from './hook-input.js';
export { hookMatcherMatches } from './hook-matcher.js';
export { blockingReason, type HookResult, MAX_HOOK_LOG_CHARS } from './hook-result.js';
export { HookRunner, type HookRunnerOptions, type HookRunOutcome, type HookRunRequest } from './hook-runner.js';
export { InvalidHookConfigError } from './invalid-hook-config-error.js';
export { defaultHookConfigPaths, findHookConfigFile, loadHookConfigFile } from './load-hook-config.js';
export { type RunHookOptions, runHook } from './run-hook.js';
