import type { AnyEvent } from '@x/events';
import { copyFields } from '../internal/copy-fields.js';
import {
  ARTIFACT_DELTA_KEY,
  applyArtifactDelta,
  applySessionStateDelta,
  STATE_DELTA_KEY,
} from '../session/session-keys.js';
import { escalationValueSchema } from './control-state.js';
import { type ConversationState, conversationStateSchema, stateTaskItemSchema } from './conversation-state.js';
import { executionStatusSchema } from './execution-status.js';
import { isValidatedStats, markValidatedStats } from './validated-stats.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const taskListSchema = stateTaskItemSchema.array();

/**
 * A key's update is parsed once per change (the per-step stats arrive validated): zod's compiled fast path (a
 * `new Function` per object schema, ~5 ms for the first policy or thresholds) would cost more than it saves.
 */
const JITLESS = { jitless: true } as const;

/**
 * The state after one more event: a pure function, so the same events always give the same state and
 * the state at any index is a fold over the events before it (time travel).
 *
 * Our conversations record every status, policy, stats and title change as a
 * ConversationStateUpdateEvent, which is authoritative. Logs written by the reference's standalone SDK
 * carry no such events, so the status is also inferred from the events that imply it (a user message
 * resets finished/stuck to idle, a finish observation or a plain agent reply finishes, a pause pauses,
 * a conversation error errors).
 */
export function applyEvent(state: ConversationState, event: AnyEvent): ConversationState {
  // A copy and a store, not `{ ...state, event_count }`: see `copyFields` (three events a step).
  const next = copyFields(state);
  next.event_count = state.event_count + 1;
  // Every event but a state update is a node of the conversation tree and becomes HEAD (reference §7.7).
  if (event.kind !== 'ConversationStateUpdateEvent' && !isOpaqueStateUpdate(event)) {
    next.leaf_event_id = event.id;
    next.head_is_empty = false;
  }
  switch (event.kind) {
    case 'MessageEvent':
      if (event.source === 'user') {
        next.last_user_message_id = event.id;
        if (state.execution_status === 'finished' || state.execution_status === 'stuck') next.execution_status = 'idle';
      } else if (event.source === 'agent' && event.llm_response_id !== undefined) {
        countResponse(next, event.llm_response_id);
        const hasText = event.llm_message.content.some((part) => part.type === 'text' && part.text.trim() !== '');
        if (hasText && (event.llm_message.tool_calls ?? []).length === 0) next.execution_status = 'finished';
      }
      break;
    case 'ActionEvent':
      countResponse(next, event.llm_response_id);
      if (event.action !== undefined) {
        next.pending_actions = [
          ...state.pending_actions,
          { action_id: event.id, tool_call_id: event.tool_call_id, tool_name: event.tool_name },
        ];
      }
      // Only idle is inferred to run: a pause requested while the model was answering must survive the
      // actions of that answer, so the run stops before its next step.
      if (state.execution_status === 'idle') next.execution_status = 'running';
      break;
    case 'ObservationEvent':
      next.pending_actions = state.pending_actions.filter((pending) => pending.action_id !== event.action_id);
      if (event.observation.kind === 'FinishObservation') next.execution_status = 'finished';
      if (event.observation.kind === 'InvokeSkillObservation') recordInvokedSkill(next, event.observation);
      if (event.observation.kind === 'TaskTrackerObservation') {
        const list = taskListSchema.safeParse((event.observation as { task_list?: unknown }).task_list);
        if (list.success) next.task_list = list.data;
      }
      break;
    case 'UserRejectObservation':
      next.pending_actions = state.pending_actions.filter((pending) => pending.action_id !== event.action_id);
      if (state.execution_status === 'waiting_for_confirmation') next.execution_status = 'idle';
      break;
    case 'AgentErrorEvent':
      // Errors answer a call by tool_call_id (they carry no action id, reference §3.8).
      next.pending_actions = state.pending_actions.filter((pending) => pending.tool_call_id !== event.tool_call_id);
      break;
    case 'PauseEvent':
      if (state.execution_status === 'idle' || state.execution_status === 'running') next.execution_status = 'paused';
      break;
    case 'ConversationErrorEvent':
      next.execution_status = 'error';
      break;
    case 'ConversationStateUpdateEvent':
      applyStateUpdate(next, event.key, event.value);
      break;
    default:
      break;
  }
  return next;
}

function isOpaqueStateUpdate(event: AnyEvent): boolean {
  return event.kind === 'OpaqueEvent' && event.opaque_kind === 'ConversationStateUpdateEvent';
}

function countResponse(state: ConversationState, responseId: string): void {
  if (state.last_llm_response_id !== responseId) {
    state.iteration += 1;
    state.last_llm_response_id = responseId;
  }
}

const updatableKeys = [
  'execution_status',
  'confirmation_policy',
  'stats',
  'title',
  'max_iterations',
  'stuck_detection',
  'blocked_actions',
  'blocked_messages',
  'active_agent',
];

function applyStateUpdate(state: ConversationState, key: string, value: unknown): void {
  if (key === 'full_state' && value !== null && typeof value === 'object') {
    for (const field of updatableKeys) {
      if (field in value) applyStateUpdate(state, field, (value as Record<string, unknown>)[field]);
    }
    return;
  }
  if (key === STATE_DELTA_KEY && isRecord(value)) {
    state.session_state = applySessionStateDelta(state.session_state, value);
    return;
  }
  if (key === ARTIFACT_DELTA_KEY && isRecord(value)) {
    state.artifacts = applyArtifactDelta(state.artifacts, value);
    return;
  }
  if (key === 'nudged_error_id' && typeof value === 'string') {
    state.nudged_error_ids = [...state.nudged_error_ids, value].slice(-20);
    return;
  }
  if (key === 'escalation') {
    const escalation = escalationValueSchema.safeParse(value, JITLESS);
    // The index tells a run that it was this run's sub-agent that escalated, not an earlier one.
    if (escalation.success) state.escalation = { ...escalation.data, event_index: state.event_count - 1 };
    return;
  }
  if (key === 'stats' && isValidatedStats(value)) {
    state.stats = value;
    return;
  }
  if (!updatableKeys.includes(key)) return;
  const shape = conversationStateSchema.shape as Record<
    string,
    { safeParse(v: unknown, params?: typeof JITLESS): { success: boolean; data?: unknown } }
  >;
  const parsed =
    key === 'execution_status' ? executionStatusSchema.safeParse(value) : shape[key]?.safeParse(value, JITLESS);
  // A malformed update (e.g. written by a buggy client) is ignored rather than breaking the fold.
  if (!parsed?.success) return;
  (state as Record<string, unknown>)[key] = parsed.data;
  if (key === 'stats') markValidatedStats(parsed.data as ConversationState['stats']);
}

/** The reference records each skill `invoke_skill` returned (not an error) in `invoked_skills`, once. */
function recordInvokedSkill(state: ConversationState, observation: { is_error?: unknown; skill_name?: unknown }): void {
  const name = observation.skill_name;
  if (observation.is_error === true || typeof name !== 'string' || name === '') return;
  const invoked = state.invoked_skills ?? [];
  if (!invoked.includes(name)) state.invoked_skills = [...invoked, name];
}
