import type { z } from 'zod';
import {
  acpToolCallEventSchema,
  condensationRequestSchema,
  condensationSchema,
  conversationErrorEventSchema,
  conversationStateUpdateEventSchema,
  hookExecutionEventSchema,
  interruptEventSchema,
  llmCompletionLogEventSchema,
  pauseEventSchema,
  serverErrorEventSchema,
  streamingDeltaEventSchema,
  tokenEventSchema,
} from './control-events.js';
import {
  actionEventSchema,
  agentErrorEventSchema,
  condensationSummaryEventSchema,
  messageEventSchema,
  observationEventSchema,
  systemPromptEventSchema,
  userRejectObservationSchema,
} from './llm-convertible-events.js';
import type { OpaqueEvent } from './opaque-event.js';

/** Schema of every built-in event kind, by kind. */
export const builtinEventSchemas = {
  SystemPromptEvent: systemPromptEventSchema,
  MessageEvent: messageEventSchema,
  ActionEvent: actionEventSchema,
  ObservationEvent: observationEventSchema,
  UserRejectObservation: userRejectObservationSchema,
  AgentErrorEvent: agentErrorEventSchema,
  CondensationSummaryEvent: condensationSummaryEventSchema,
  Condensation: condensationSchema,
  CondensationRequest: condensationRequestSchema,
  ConversationStateUpdateEvent: conversationStateUpdateEventSchema,
  ConversationErrorEvent: conversationErrorEventSchema,
  PauseEvent: pauseEventSchema,
  InterruptEvent: interruptEventSchema,
  TokenEvent: tokenEventSchema,
  HookExecutionEvent: hookExecutionEventSchema,
  LLMCompletionLogEvent: llmCompletionLogEventSchema,
  StreamingDeltaEvent: streamingDeltaEventSchema,
  ACPToolCallEvent: acpToolCallEventSchema,
  ServerErrorEvent: serverErrorEventSchema,
} as const;

export type BuiltinEventKind = keyof typeof builtinEventSchemas;
export type BuiltinEvent = { [K in BuiltinEventKind]: z.infer<(typeof builtinEventSchemas)[K]> }[BuiltinEventKind];
/** Every event value: a built-in kind (narrowable by `kind`) or an opaque unknown kind. */
export type AnyEvent = BuiltinEvent | OpaqueEvent;
export type EventOfKind<K extends BuiltinEventKind> = z.infer<(typeof builtinEventSchemas)[K]>;

import type {
  ActionEvent,
  AgentErrorEvent,
  CondensationSummaryEvent,
  MessageEvent,
  ObservationEvent,
  SystemPromptEvent,
  UserRejectObservation,
} from './llm-convertible-events.js';

/** Events that can become an LLM message. */
export type LLMConvertibleEvent =
  | SystemPromptEvent
  | MessageEvent
  | ActionEvent
  | ObservationEvent
  | UserRejectObservation
  | AgentErrorEvent
  | CondensationSummaryEvent;

/** Events that answer a tool call. */
export type ObservationLikeEvent = ObservationEvent | UserRejectObservation | AgentErrorEvent;

const llmConvertibleKinds = new Set<string>([
  'SystemPromptEvent',
  'MessageEvent',
  'ActionEvent',
  'ObservationEvent',
  'UserRejectObservation',
  'AgentErrorEvent',
  'CondensationSummaryEvent',
]);

export function isLLMConvertibleEvent(event: AnyEvent): event is LLMConvertibleEvent {
  return llmConvertibleKinds.has(event.kind);
}

export function isObservationLike(event: AnyEvent): event is ObservationLikeEvent {
  return (
    event.kind === 'ObservationEvent' || event.kind === 'UserRejectObservation' || event.kind === 'AgentErrorEvent'
  );
}

export function isOpaqueEvent(event: AnyEvent): event is OpaqueEvent {
  return event.kind === 'OpaqueEvent';
}
