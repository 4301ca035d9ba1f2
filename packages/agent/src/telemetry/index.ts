export {
  markConfirmationWait,
  type ToolSpan,
  traceAgentRun,
  traceChat,
  traceCondense,
  traceHook,
  traceTool,
  withAgentName,
} from './agent-spans.js';
export {
  ATTR as GENAI_ATTRIBUTES,
  INSTRUMENTATION_SCOPE,
  METRIC as GENAI_METRICS,
  OPERATION as GENAI_OPERATIONS,
} from './attributes.js';
export { linkEvent } from './link-event.js';
export { describeLLM, type LLMSettings } from './llm-settings.js';
export { captureMessageContent, configureTelemetry, type TelemetryOptions } from './telemetry-options.js';
