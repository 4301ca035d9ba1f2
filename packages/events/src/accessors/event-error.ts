import type { ErrorClassification } from '../schemas/common.js';
import type { AnyEvent } from '../schemas/events.js';
import { observationText } from './observation-text.js';

/** The error an event reports. */
export interface EventError {
  /** Error code (ConversationErrorEvent/ServerErrorEvent `code`). */
  readonly code?: string;
  readonly message: string;
  readonly classification?: ErrorClassification;
}

/**
 * The error an event reports, or undefined: AgentErrorEvent (`error`), ConversationErrorEvent and
 * ServerErrorEvent (`code`, `detail`), an ObservationEvent whose observation has `is_error`, a
 * failed HookExecutionEvent with an `error`.
 */
export function getEventError(event: AnyEvent): EventError | undefined {
  switch (event.kind) {
    case 'AgentErrorEvent':
      return { message: event.error, classification: event.classification };
    case 'ConversationErrorEvent':
      return {
        code: event.code,
        message: event.detail,
        ...(event.classification === undefined ? {} : { classification: event.classification }),
      };
    case 'ServerErrorEvent':
      return { code: event.code, message: event.detail };
    case 'ObservationEvent':
      return event.observation.is_error ? { message: observationText(event.observation) } : undefined;
    case 'HookExecutionEvent':
      return event.error === undefined ? undefined : { message: event.error };
    default:
      return undefined;
  }
}
