import type {
  ActionEvent,
  AgentErrorEvent,
  ObservationEvent,
  UserRejectObservation,
} from '../schemas/llm-convertible-events.js';
import { type CreateEventInput, type CreateEventOptions, createEvent } from './create-event.js';

type ActionInput = CreateEventInput<'ActionEvent'>;

/**
 * An ActionEvent (source `agent`). `tool_name` and `tool_call_id` default to the tool call's name
 * and id, `thought` to `[]` (later actions of a parallel batch carry none). A registered action
 * kind is validated against its schema.
 */
export function createActionEvent(
  fields: Omit<ActionInput, 'tool_name' | 'tool_call_id' | 'thought'> &
    Partial<Pick<ActionInput, 'tool_name' | 'tool_call_id' | 'thought'>>,
  options?: CreateEventOptions,
): ActionEvent {
  return createEvent(
    'ActionEvent',
    {
      ...fields,
      thought: fields.thought ?? [],
      tool_name: fields.tool_name ?? fields.tool_call.name,
      tool_call_id: fields.tool_call_id ?? fields.tool_call.id,
    },
    options,
  );
}

/** The fields that tie a result to its action, given directly or taken from the ActionEvent. */
type AnswerTo<Input> =
  | (Omit<Input, 'tool_name' | 'tool_call_id' | 'action_id'> & { action: ActionEvent })
  | (Input & { action?: undefined });

/**
 * An ObservationEvent (source `environment`). Pass `action` (the ActionEvent answered) instead of
 * `tool_name`, `tool_call_id` and `action_id`. A registered observation kind is validated.
 */
export function createObservationEvent(
  fields: AnswerTo<CreateEventInput<'ObservationEvent'>>,
  options?: CreateEventOptions,
): ObservationEvent {
  return createEvent('ObservationEvent', answering(fields), options);
}

/** A UserRejectObservation (source `environment`, reason "User rejected the action" by default). */
export function createUserRejectObservation(
  fields: AnswerTo<CreateEventInput<'UserRejectObservation'>>,
  options?: CreateEventOptions,
): UserRejectObservation {
  return createEvent('UserRejectObservation', answering(fields), options);
}

/**
 * An AgentErrorEvent (source `agent`) answering a tool call. Classification defaults to unknown,
 * as in the reference; pass `AGENT_ACTION_CLASSIFICATION` for errors the agent can correct.
 */
export function createAgentErrorEvent(
  fields: CreateEventInput<'AgentErrorEvent'>,
  options?: CreateEventOptions,
): AgentErrorEvent {
  return createEvent('AgentErrorEvent', fields, options);
}

function answering<Input extends object>(fields: AnswerTo<Input>): Input {
  const { action, ...rest } = fields;
  if (action === undefined) return rest as unknown as Input;
  return { ...rest, tool_name: action.tool_name, tool_call_id: action.tool_call_id, action_id: action.id } as Input;
}
