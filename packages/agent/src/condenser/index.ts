// The public exports of condenser/, re-exported by the package root.
export { type Condenser, type CondenserContext, isCondensation } from './condenser.js';
export { type CondenserFromJSONOptions, condenserFromJSON } from './condenser-from-json.js';
export { InvalidCondenserConfigError } from './invalid-condenser-config-error.js';
export {
  type CondensationReason,
  defaultCondenser,
  LLMSummarizingCondenser,
} from './llm-summarizing-condenser.js';
export {
  type LLMSummarizingCondenserOptions,
  type LLMSummarizingCondenserSettings,
  llmSummarizingCondenserSettingsSchema,
} from './llm-summarizing-condenser-options.js';
export { NoCondensationAvailableError } from './no-condensation-available-error.js';
export { NoOpCondenser } from './no-op-condenser.js';
export { PipelineCondenser } from './pipeline-condenser.js';
export { type CondensationRequirement, RollingCondenser } from './rolling-condenser.js';
export { renderSummarizingPrompt } from './summarizing-prompt.js';
export {
  approximateTokenCounter,
  countEventTokens,
  type PrefixSearchOptions,
  shortestPrefixAboveTokenCount,
  suffixLengthForTokenReduction,
  type TokenCounter,
} from './token-counter.js';
