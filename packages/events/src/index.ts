export {
  contentText,
  type EventError,
  getEventError,
  getEventText,
  getEventThinking,
  getEventToolCalls,
  isFinalResponse,
  observationText,
  toolNameFromToolKind,
} from './accessors/index.js';
export { eventToLlmMessage, OBSERVATION_ERROR_HEADER } from './convert/event-to-llm-message.js';
export { eventsToMessages } from './convert/events-to-messages.js';
export { getUnmatchedActions } from './convert/get-unmatched-actions.js';
export { classifyConversationError } from './create/classify-conversation-error.js';
export {
  createCondensation,
  createCondensationRequest,
  createConversationErrorEvent,
  createConversationStateUpdateEvent,
  createHookExecutionEvent,
  createInterruptEvent,
  createLLMCompletionLogEvent,
  createPauseEvent,
  createServerErrorEvent,
  createStreamingDeltaEvent,
  createTokenEvent,
} from './create/control-events.js';
export { type CreateEventInput, type CreateEventOptions, createEvent } from './create/create-event.js';
export { type CreateCustomEventInput, createCustomEvent } from './create/custom-event.js';
export { eventTimestamp, newEventId } from './create/ids.js';
export { agentMessage, createMessageEvent, createSystemPromptEvent, userMessage } from './create/message-events.js';
export { text } from './create/text.js';
export {
  createActionEvent,
  createAgentErrorEvent,
  createObservationEvent,
  createUserRejectObservation,
} from './create/tool-events.js';
export { withParent } from './create/with-parent.js';
export { ChatImportError } from './errors/chat-import-error.js';
export { EventParseError, type EventParseIssue } from './errors/event-parse-error.js';
export { EventTreeError } from './errors/event-tree-error.js';
export { KindRegistrationError } from './errors/kind-registration-error.js';
export { MultiActionThoughtError } from './errors/multi-action-thought-error.js';
export { NoManipulationIndexError } from './errors/no-manipulation-index-error.js';
export { EventsError } from './errors.js';
export {
  type ParseEventOptions,
  parseEvent,
  parseEventJson,
  type SafeParseEventResult,
  safeParseEvent,
} from './json/parse-event.js';
export { pythonJsonDumps } from './json/python-json.js';
export { rawEventText } from './json/raw-text.js';
export { eventParserVersion, reviveValidatedEvent } from './json/revive-validated-event.js';
export { isRoundTripSafe } from './json/round-trip-events.js';
export { safeParseKeepingPrototypeKeys } from './json/safe-parse-keeping-prototype-keys.js';
export { eventToJson, serializeEvent, serializeEvents } from './json/serialize-event.js';
export {
  type ActionKindOptions,
  applyPatchActionSchema,
  applyPatchObservationSchema,
  browserLlmContent,
  browserObservationReadSchema,
  type CustomEventOf,
  consultTomLlmContent,
  consultTomObservationReadSchema,
  createEventRegistry,
  defaultEventRegistry,
  type EventKindHandle,
  type EventKindOptions,
  type EventRegistry,
  type FinishAction,
  fileChangeReadSchema,
  finishActionSchema,
  finishObservationSchema,
  globActionSchema,
  globObservationSchema,
  grepActionSchema,
  grepObservationSchema,
  invokeSkillActionSchema,
  invokeSkillObservationSchema,
  maxCommandOutputSize,
  maybeTruncate,
  maybeTruncatePersisted,
  type ObjectSchema,
  type ObservationKindOptions,
  type PersistedTruncateOptions,
  registerActionKind,
  registerEventKind,
  registerObservationKind,
  savedOutputPath,
  sleeptimeComputeLlmContent,
  sleeptimeComputeObservationReadSchema,
  THINK_OBSERVATION_TEXT,
  type ThinkAction,
  taskLlmContent,
  taskObservationReadSchema,
  terminalLlmContent,
  terminalObservationReadSchema,
  thinkActionSchema,
  thinkObservationSchema,
  truncateNotice,
} from './registry/index.js';
export type {
  AnthropicCacheControl,
  AnthropicContentBlock,
  AnthropicImageBlock,
  AnthropicImageSource,
  AnthropicMessageParam,
  AnthropicMessagesInput,
  AnthropicMessagesOptions,
  AnthropicRedactedThinkingBlock,
  AnthropicTextBlock,
  AnthropicThinkingBlock,
  AnthropicToolResultBlock,
  AnthropicToolUseBlock,
} from './render/anthropic-types.js';
export type {
  ChatAssistantMessage,
  ChatCacheControl,
  ChatCompletionsMessage,
  ChatCompletionsOptions,
  ChatContentPart,
  ChatImagePart,
  ChatSystemMessage,
  ChatTextPart,
  ChatThinkingBlock,
  ChatToolMessage,
  ChatUserMessage,
} from './render/chat-completions-types.js';
export { fromChatCompletionsMessages, IMPORTED_OBSERVATION_KIND } from './render/from-chat-completions-messages.js';
export { toAnthropicMessages } from './render/to-anthropic-messages.js';
export { toChatCompletionsMessages } from './render/to-chat-completions-messages.js';
export {
  type ResponsesAssistantMessageItem,
  type ResponsesInput,
  type ResponsesInputItem,
  type ResponsesInputOptions,
  toResponsesInput,
} from './render/to-responses-input.js';
export { TOOL_TEXT_LIMIT, TRUNCATE_NOTICE, truncateToolText } from './render/truncate-tool-text.js';
export {
  type Action,
  AGENT_ACTION_CLASSIFICATION,
  actionSchema,
  type CriticResult,
  criticResultSchema,
  type ErrorClassification,
  errorClassificationSchema,
  type FailureKind,
  failureKindSchema,
  type Observation,
  observationSchema,
  type SecurityRisk,
  type SourceType,
  securityRiskSchema,
  sourceTypeSchema,
  type ToolAnnotations,
  type ToolDefinition,
  toolAnnotationsSchema,
  toolDefinitionSchema,
  UNKNOWN_CLASSIFICATION,
} from './schemas/common.js';
export {
  type AnyThinkingBlock,
  anyThinkingBlockSchema,
  type ContentPart,
  contentPartSchema,
  type ImageContent,
  imageContentSchema,
  type Message,
  type MessageRole,
  type MessageToolCall,
  messageRoleSchema,
  messageSchema,
  messageToolCallSchema,
  type ReasoningItem,
  type RedactedThinkingBlock,
  reasoningItemSchema,
  redactedThinkingBlockSchema,
  type TextContent,
  type ThinkingBlock,
  textContentSchema,
  thinkingBlockSchema,
} from './schemas/content.js';
export {
  type ACPToolCallEvent,
  acpToolCallEventSchema,
  type Condensation,
  type CondensationRequest,
  type ConversationErrorEvent,
  type ConversationStateUpdateEvent,
  condensationRequestSchema,
  condensationSchema,
  conversationErrorEventSchema,
  conversationStateUpdateEventSchema,
  type HookExecutionEvent,
  hookEventTypeSchema,
  hookExecutionEventSchema,
  type InterruptEvent,
  interruptEventSchema,
  type LLMCompletionLogEvent,
  llmCompletionLogEventSchema,
  type PauseEvent,
  pauseEventSchema,
  type ServerErrorEvent,
  type StreamingDeltaEvent,
  serverErrorEventSchema,
  streamingDeltaEventSchema,
  type TokenEvent,
  tokenEventSchema,
} from './schemas/control-events.js';
export { eventIdSchema, ROOT_PARENT_ID } from './schemas/event-base.js';
export {
  type AnyEvent,
  type BuiltinEvent,
  type BuiltinEventKind,
  builtinEventSchemas,
  type EventOfKind,
  isLLMConvertibleEvent,
  isObservationLike,
  isOpaqueEvent,
  type LLMConvertibleEvent,
  type ObservationLikeEvent,
} from './schemas/events.js';
export {
  type ActionEvent,
  type AgentErrorEvent,
  actionEventSchema,
  agentErrorEventSchema,
  type CondensationSummaryEvent,
  condensationSummaryEventSchema,
  type MessageEvent,
  messageEventSchema,
  type ObservationEvent,
  observationEventSchema,
  type SystemPromptEvent,
  systemPromptEventSchema,
  type UserRejectObservation,
  userRejectObservationSchema,
} from './schemas/llm-convertible-events.js';
export type { OpaqueEvent } from './schemas/opaque-event.js';
export { activeBranch, EventTree, isTreeArtifactKind, parentForAppend, type TreeNodeInput } from './tree/index.js';
export { applyCondensation, condensationSummaryId } from './view/apply-condensation.js';
export { View } from './view/view.js';
