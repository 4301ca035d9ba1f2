export {
  type AgentAnswer,
  answerChunks,
  type ChatCompletion,
  type ChatCompletionChunk,
  type CompletionUsage,
  chatCompletionOf,
  completionUsageOf,
  roleChunk,
  SSE_DONE,
  sseData,
} from './chat-completion.js';
export {
  type ChatCompletionRequest,
  type ChatTurn,
  chatCompletionRequestSchema,
  chatTurnOf,
} from './chat-request.js';
export { type OpenAiErrorBody, OpenAiGatewayError, openAiErrorBody, openAiErrorOf } from './openai-error.js';
export { CONVERSATION_HEADER, OPENAI_PATH, type OpenAiRoutesOptions, registerOpenAiRoutes } from './openai-routes.js';
export type { ResponseObject, ResponseUsage } from './response-object.js';
export { ResponseStore, type StoredResponse } from './response-store.js';
export { type ResponsesRequest, responsesRequestSchema, responsesTurnOf } from './responses-request.js';
export { registerResponsesRoutes } from './responses-routes.js';
