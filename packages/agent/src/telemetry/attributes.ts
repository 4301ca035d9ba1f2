/**
 * Attribute, span and metric names of the OpenTelemetry GenAI semantic conventions (Development status,
 * semantic-conventions 1.37+: `gen_ai.provider.name`, `gen_ai.input.messages`, ...), plus the few `x.*`
 * attributes that join a trace to the event log.
 */
export const ATTR = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  conversationId: 'gen_ai.conversation.id',
  agentName: 'gen_ai.agent.name',
  agentId: 'gen_ai.agent.id',
  requestModel: 'gen_ai.request.model',
  requestTemperature: 'gen_ai.request.temperature',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  responseId: 'gen_ai.response.id',
  responseModel: 'gen_ai.response.model',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  usageCacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  usageCacheCreationInputTokens: 'gen_ai.usage.cache_creation.input_tokens',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  outputType: 'gen_ai.output.type',
  toolName: 'gen_ai.tool.name',
  toolType: 'gen_ai.tool.type',
  toolDescription: 'gen_ai.tool.description',
  toolCallId: 'gen_ai.tool.call.id',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  tokenType: 'gen_ai.token.type',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  errorType: 'error.type',
  /** x: the id of the event a span produced (ObservationEvent, Condensation, ...). */
  eventId: 'x.event.id',
  /** x: the ActionEvent a tool span or confirmation wait belongs to. */
  actionIds: 'x.action.ids',
  /** x: the hook event type (PreToolUse, Stop, ...) of a hook span. */
  hookEventType: 'x.hook.event_type',
} as const;

/** `gen_ai.operation.name` values; `condense`, `await_confirmation` and `run_hook` are x's own. */
export const OPERATION = {
  invokeAgent: 'invoke_agent',
  chat: 'chat',
  executeTool: 'execute_tool',
  condense: 'condense',
  awaitConfirmation: 'await_confirmation',
  runHook: 'run_hook',
} as const;

export const METRIC = {
  tokenUsage: 'gen_ai.client.token.usage',
  operationDuration: 'gen_ai.client.operation.duration',
} as const;

/** Explicit bucket boundaries the conventions advise for the two client histograms. */
export const TOKEN_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];
export const DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];

/** The instrumentation scope of every span and metric x emits. */
export const INSTRUMENTATION_SCOPE = '@x/agent';

/** `gen_ai.provider.name` for x's wire protocols (well-known values of the conventions where one exists). */
export function providerName(llm: { provider?: string; offline: boolean }): string {
  switch (llm.provider ?? (llm.offline ? 'offline' : undefined)) {
    case 'openai':
    case 'openai-responses':
      return 'openai';
    case 'anthropic':
      return 'anthropic';
    case 'gemini':
      return 'gcp.gemini';
    case undefined:
      return 'unknown';
    default:
      return llm.provider ?? 'offline';
  }
}
