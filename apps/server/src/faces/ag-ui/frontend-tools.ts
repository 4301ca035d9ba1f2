import { type ActionDecision, AgentError, type Conversation, createClientTool, type Tool } from '@x/agent';
import type { ActionEvent } from '@x/events';
import { clientText } from '../../internal/client-text.js';
import { AgUiRunError } from './ag-ui-run-error.js';
import { type AgUiRunInput, userMessageText } from './run-input.js';

/** The principal the results of frontend tools are recorded with (`events/.decisions/`). */
export const AG_UI_CLIENT_PRINCIPAL = 'ag-ui-client';

/** A call of a tool the client runs: its action kind is the reference's `ClientAction_<name>`. */
export function isFrontendCall(action: ActionEvent): boolean {
  return action.action?.kind.startsWith('ClientAction_') === true;
}

/**
 * The run input's `tools` as tools the client runs. A name that is a tool of any of the conversation's agents (their
 * own, and the handoff tools `transfer_to_agent` / `escalate`) is refused (`tool_name_clash`): a frontend tool never
 * shadows a server tool, whichever agent is in control.
 */
export function frontendToolsOf(input: AgUiRunInput, conversation: Conversation): Tool[] {
  const serverNames = conversation.toolNames;
  const seen = new Set<string>();
  return (input.tools ?? []).map((spec, position) => {
    if (serverNames.has(spec.name)) {
      throw new AgUiRunError(
        'tool_name_clash',
        `tools[${position}]: '${clientText(spec.name)}' is a tool of the server's agents; a frontend tool cannot replace it`,
      );
    }
    if (seen.has(spec.name))
      throw new AgUiRunError('tool_name_clash', `tools[${position}]: '${clientText(spec.name)}' is twice`);
    seen.add(spec.name);
    try {
      return createClientTool({ name: spec.name, description: spec.description, parameters: spec.parameters });
    } catch (error) {
      if (!AgentError.isInstance(error)) throw error;
      throw new AgUiRunError('invalid_tool', `tools[${position}]: ${error.message}`, { cause: error });
    }
  });
}

/** The results of frontend calls a run input brings, checked against the thread, with the tools to decide them. */
export interface FrontendResults {
  decisions: ActionDecision[];
  /** Tools for the answered calls that the input no longer offers (needed to record their results). */
  answeredTools: Tool[];
}

/**
 * The `role: "tool"` messages of a run input that answer the thread's pending frontend calls, as `substitute`
 * decisions (the reference's `ClientToolObservation`). A result for a call the thread does not have, or for one
 * that is not a pending frontend call, is `unknown_tool_call`; a pending frontend call left unanswered is
 * `pending_tool_call`. `messages` are those the thread has not seen; results of calls already answered are skipped.
 */
export async function frontendResultsOf(
  messages: AgUiRunInput['messages'],
  conversation: Conversation,
  offered: readonly Tool[],
): Promise<FrontendResults> {
  const pending = (await conversation.pendingActions()).filter(isFrontendCall);
  const byCallId = new Map(pending.map((action) => [action.tool_call_id, action]));
  const answered = new Map<string, ActionDecision>();
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    const callId = typeof message.toolCallId === 'string' ? message.toolCallId : '';
    const action = byCallId.get(callId);
    if (action === undefined) {
      if (await wasAnswered(conversation, callId)) continue;
      throw new AgUiRunError(
        'unknown_tool_call',
        `messages: tool message '${clientText(message.id)}' answers tool call '${clientText(callId)}', which is not a frontend tool call waiting for its result in this thread`,
      );
    }
    const error = typeof message.error === 'string' && message.error !== '' ? message.error : undefined;
    answered.set(callId, {
      action_id: action.id,
      decision: {
        kind: 'substitute',
        result: { content: error ?? userMessageText(message.content), is_error: error !== undefined },
      },
    });
  }
  const missing = pending.filter((action) => !answered.has(action.tool_call_id));
  if (missing.length > 0) {
    const calls = missing.map((action) => `'${action.tool_call_id}' (${action.tool_name})`).join(', ');
    throw new AgUiRunError(
      'pending_tool_call',
      `The thread waits for the result of frontend tool call ${calls}: send it as a message with role 'tool' and that toolCallId`,
    );
  }
  const offeredNames = new Set(offered.map((tool) => tool.name));
  const answeredTools = pending
    .filter((action) => answered.has(action.tool_call_id) && !offeredNames.has(action.tool_name))
    .map((action) => createClientTool({ name: action.tool_name, description: '' }));
  return { decisions: [...answered.values()], answeredTools };
}

/** Whether the log holds an action with this tool call id that already has its result. */
async function wasAnswered(conversation: Conversation, callId: string): Promise<boolean> {
  if (callId === '') return false;
  for await (const event of conversation.events()) {
    if ('tool_call_id' in event && event.tool_call_id === callId && event.kind !== 'ActionEvent') return true;
  }
  return false;
}
