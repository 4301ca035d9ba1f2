// The public exports of llm/, re-exported by the package root.
export { InvalidUsageIdError } from './errors/invalid-usage-id-error.js';
export { LLMAbortedError } from './errors/llm-aborted-error.js';
export { LLMAuthenticationError } from './errors/llm-authentication-error.js';
export { LLMBadRequestError } from './errors/llm-bad-request-error.js';
export { LLMContextWindowExceededError } from './errors/llm-context-window-exceeded-error.js';
export { LLMError, type LLMErrorCode, type LLMErrorDetails } from './errors/llm-error.js';
export { LLMIncompleteResponseError } from './errors/llm-incomplete-response-error.js';
export { LLMInvalidRecordingError } from './errors/llm-invalid-recording-error.js';
export { LLMMalformedToolCallError } from './errors/llm-malformed-tool-call-error.js';
export { LLMRateLimitError } from './errors/llm-rate-limit-error.js';
export { LLMScriptExhaustedError } from './errors/llm-script-exhausted-error.js';
export { LLMServiceError } from './errors/llm-service-error.js';
export { LLMTimeoutError } from './errors/llm-timeout-error.js';
export {
  type LLM,
  type LLMDelta,
  type LLMFinishReason,
  type LLMMessage,
  type LLMRequest,
  type LLMResponse,
  type LLMTool,
  normalizeMessages,
} from './llm.js';
export type { BaseLLMConfig } from './llm-config.js';
export { maskUrlCredentials } from './mask-url-credentials.js';
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
} from './metrics.js';
export {
  builtInDemoScript,
  createOfflineLLM,
  type OfflineLLMOptions,
  type OfflineScript,
  type OfflineTurn,
} from './offline-llm.js';
export { createOpenAILLM, type LLMConfig } from './openai-llm.js';
export { type Pricing, pricingFor, pricingTable, registerPricing } from './pricing.js';
export { type RecordedResponse, recordedResponseSchema, recordingFromEvents } from './recording.js';
export { defaultModel, type LLMOverrides, resolveLLMFromEnv } from './resolve-llm-from-env.js';
export { withUsageId } from './with-usage-id.js';
