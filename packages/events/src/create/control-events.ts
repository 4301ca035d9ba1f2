import type {
  Condensation,
  CondensationRequest,
  ConversationErrorEvent,
  ConversationStateUpdateEvent,
  HookExecutionEvent,
  InterruptEvent,
  LLMCompletionLogEvent,
  PauseEvent,
  ServerErrorEvent,
  StreamingDeltaEvent,
  TokenEvent,
} from '../schemas/control-events.js';
import { type CreateEventInput, type CreateEventOptions, createEvent } from './create-event.js';

/** Input with `source` optional (for kinds whose schema requires it but whose producer is known). */
type WithOptionalSource<Input extends { source: unknown }> = Omit<Input, 'source'> & { source?: Input['source'] };

/** A Condensation (source `environment`); duplicate forgotten ids are dropped. */
export function createCondensation(
  fields: CreateEventInput<'Condensation'>,
  options?: CreateEventOptions,
): Condensation {
  return createEvent('Condensation', fields, options);
}

/** A CondensationRequest (source `environment`): "please condense now". */
export function createCondensationRequest(
  fields: CreateEventInput<'CondensationRequest'> = {},
  options?: CreateEventOptions,
): CondensationRequest {
  return createEvent('CondensationRequest', fields, options);
}

/** A ConversationStateUpdateEvent (source `environment`); `value` defaults to `{}` as in the reference. */
export function createConversationStateUpdateEvent(
  fields: CreateEventInput<'ConversationStateUpdateEvent'>,
  options?: CreateEventOptions,
): ConversationStateUpdateEvent {
  return createEvent('ConversationStateUpdateEvent', { ...fields, value: fields.value ?? {} }, options);
}

/**
 * A ConversationErrorEvent. `source` defaults to `environment` (what the reference's runtime
 * uses; the schema itself requires it). A missing `classification` is computed from `code` and
 * `detail` with the reference's rules (`classifyConversationError`).
 */
export function createConversationErrorEvent(
  fields: WithOptionalSource<CreateEventInput<'ConversationErrorEvent'>>,
  options?: CreateEventOptions,
): ConversationErrorEvent {
  return createEvent('ConversationErrorEvent', { ...fields, source: fields.source ?? 'environment' }, options);
}

/** A PauseEvent (source `user`). */
export function createPauseEvent(
  fields: CreateEventInput<'PauseEvent'> = {},
  options?: CreateEventOptions,
): PauseEvent {
  return createEvent('PauseEvent', fields, options);
}

/** An InterruptEvent (source `user`). */
export function createInterruptEvent(
  fields: CreateEventInput<'InterruptEvent'> = {},
  options?: CreateEventOptions,
): InterruptEvent {
  return createEvent('InterruptEvent', fields, options);
}

/** A TokenEvent; `source` is required, as in the reference. */
export function createTokenEvent(fields: CreateEventInput<'TokenEvent'>, options?: CreateEventOptions): TokenEvent {
  return createEvent('TokenEvent', fields, options);
}

/** A HookExecutionEvent (source `hook`). */
export function createHookExecutionEvent(
  fields: CreateEventInput<'HookExecutionEvent'>,
  options?: CreateEventOptions,
): HookExecutionEvent {
  return createEvent('HookExecutionEvent', fields, options);
}

/** An LLMCompletionLogEvent (source `environment`; model `unknown`, usage id `default`). */
export function createLLMCompletionLogEvent(
  fields: CreateEventInput<'LLMCompletionLogEvent'>,
  options?: CreateEventOptions,
): LLMCompletionLogEvent {
  return createEvent('LLMCompletionLogEvent', fields, options);
}

/** A StreamingDeltaEvent (source `agent`); published live, never persisted. */
export function createStreamingDeltaEvent(
  fields: CreateEventInput<'StreamingDeltaEvent'>,
  options?: CreateEventOptions,
): StreamingDeltaEvent {
  return createEvent('StreamingDeltaEvent', fields, options);
}

/** A ServerErrorEvent; `source` defaults to `environment`, what the reference's server uses. */
export function createServerErrorEvent(
  fields: WithOptionalSource<CreateEventInput<'ServerErrorEvent'>>,
  options?: CreateEventOptions,
): ServerErrorEvent {
  return createEvent('ServerErrorEvent', { ...fields, source: fields.source ?? 'environment' }, options);
}
