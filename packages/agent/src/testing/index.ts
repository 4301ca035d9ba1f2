export { processGone, waitUntilGone } from './process-gone.js';
export { hostPids, PRINT_PID_NAMESPACE } from './sandbox-pids.js';
export {
  type ScriptedCompletion,
  type ScriptedContextOverflow,
  type ScriptedError,
  type ScriptedHang,
  type ScriptedLLMServer,
  type ScriptedReply,
  type ScriptedReplyFunction,
  type ScriptedRequestBody,
  type ScriptedToolCall,
  type ScriptedUsage,
  startScriptedLLMServer,
} from './scripted-llm-server.js';
export {
  createStrictReplay,
  DEFAULT_VOLATILE_PATTERNS,
  type RecordedRequest,
  type ReplayDivergence,
  ReplayDivergenceError,
  recordedRequests,
  type StrictReplay,
  type StrictReplayOptions,
  type VolatilePattern,
} from './strict-replay/index.js';
export {
  startAnthropicServer,
  startGeminiServer,
  startResponsesServer,
  type WireFailure,
  type WireFailureKind,
  type WireReply,
  type WireReplyFunction,
  type WireRequest,
  type WireServer,
  type WireTurn,
} from './wire/index.js';
