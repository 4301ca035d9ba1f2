import { randomUUID } from 'node:crypto';
import { type ActionEvent, type AnyEvent, createEvent } from '@x/events';
import { parseToolCall } from '../tools/parse-tool-call.js';
import type { Tool } from '../tools/tool.js';
import type { ApprovalDecision } from './decision.js';
import { InvalidDecisionError } from './errors/invalid-decision-error.js';

/** What the model sees of an action whose arguments a person edited: the call it made was not run as made. */
export const EDITED_ARGUMENTS_REASON = 'The user edited the arguments of this call; it runs as the next call shows.';

/**
 * The events that carry a decision into the log, in the reference's own kinds (nothing unknown to it):
 * a denial is a UserRejectObservation; a substitute result an ObservationEvent in the tool's observation shape;
 * edited arguments a UserRejectObservation for the original call followed by a new ActionEvent with the edited
 * arguments (`<tool_call_id>_edited`), which is the one that runs, so the log says exactly what ran. An approval
 * as given adds nothing: the action runs. Throws `InvalidDecisionError` when the decision does not fit the tool.
 */
export function decisionEvents(
  action: ActionEvent,
  decision: ApprovalDecision,
  tools: readonly Tool[],
  replacementActionId: string = randomUUID(),
): AnyEvent[] {
  const answer = { tool_name: action.tool_name, tool_call_id: action.tool_call_id, action_id: action.id };
  if (decision.kind === 'deny') {
    return [createEvent('UserRejectObservation', { ...answer, rejection_reason: decision.reason })];
  }
  const tool = tools.find((candidate) => candidate.name === action.tool_name);
  if (decision.kind === 'substitute') {
    if (tool === undefined) throw new InvalidDecisionError(action.id, `tool '${action.tool_name}' is not available`);
    const { content, is_error, ...extra } = decision.result;
    const parts = typeof content === 'string' ? [{ type: 'text' as const, text: content }] : content;
    try {
      const observation = { ...extra, content: parts, is_error: is_error ?? false, kind: tool.observationKind };
      return [createEvent('ObservationEvent', { ...answer, observation } as never)];
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new InvalidDecisionError(action.id, `the substitute result is not a ${tool.observationKind}: ${detail}`, {
        cause: error,
      });
    }
  }
  if (decision.arguments === undefined) return [];
  return [
    createEvent('UserRejectObservation', { ...answer, rejection_reason: EDITED_ARGUMENTS_REASON }),
    editedAction(action, decision.arguments, tools, replacementActionId),
  ];
}

/** The ActionEvent that runs with edited arguments; they must satisfy the tool's zod schema. */
export function editedAction(
  action: ActionEvent,
  args: Readonly<Record<string, unknown>>,
  tools: readonly Tool[],
  id: string,
): ActionEvent {
  const tool = tools.find((candidate) => candidate.name === action.tool_name);
  if (tool === undefined) throw new InvalidDecisionError(action.id, `tool '${action.tool_name}' is not available`);
  const checked = tool.parameters.safeParse(args);
  if (!checked.success) {
    const issues = checked.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new InvalidDecisionError(
      action.id,
      `the edited arguments do not match the schema of '${tool.name}': ${issues.join('; ')}`,
    );
  }
  const call = {
    id: `${action.tool_call_id}_edited`,
    name: tool.name,
    arguments: JSON.stringify(args),
    origin: action.tool_call.origin,
  };
  const parsed = parseToolCall(call, tools, { securityAnalyzerEnabled: false });
  if (!parsed.ok) throw new InvalidDecisionError(action.id, `the edited arguments are not valid: ${parsed.error}`);
  return createEvent('ActionEvent', {
    id,
    thought: [],
    thinking_blocks: [],
    tool_call_id: call.id,
    llm_response_id: action.llm_response_id,
    action: parsed.action,
    tool_name: tool.name,
    tool_call: parsed.normalizedCall,
    security_risk: action.security_risk,
    summary: action.summary ?? parsed.summary,
  });
}
