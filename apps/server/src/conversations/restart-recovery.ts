import {
  Conversation,
  type ConversationOptions,
  type ConversationState,
  conversationStateSchema,
  interruptedActionEvent,
} from '@x/agent';
import { createEvent } from '@x/events';
import type { ConversationMeta } from './conversation-meta.js';
import type { ManagedConversationDeps } from './managed-conversation-deps.js';
import { resumeOptions } from './resume-options.js';

/** The reference's text for an action cut short by a server restart (§11.5). */
export const RESTART_ERROR_TEXT =
  'A restart occurred while this tool was in progress. This may indicate a fatal memory error or system crash. The tool execution was interrupted and did not complete.';

/**
 * §11.5: a conversation persisted as `running` whose run is not in this process was cut off by a crash
 * or a restart. Its first unanswered action gets an AgentErrorEvent with the reference's restart text
 * and the status becomes `error`. The events are appended to the closed conversation's log, so the
 * caller resumes it afterwards and folds them like any other events.
 */
export async function recordInterruptedRun(conversation: Conversation): Promise<void> {
  const [first] = await conversation.pendingActions();
  await conversation.close();
  if (first !== undefined) {
    await conversation.log.append(
      createEvent('AgentErrorEvent', {
        parent_id: first.id,
        tool_name: first.tool_name,
        tool_call_id: first.tool_call_id,
        error: RESTART_ERROR_TEXT,
        classification: { kind: 'internal', retryable: false, user_action: 'none' },
      }),
    );
  }
  await conversation.log.append(
    createEvent('ConversationStateUpdateEvent', { key: 'execution_status', value: 'error' }),
  );
}

/**
 * A single server started with `interruptedActions`: instead of §11.5's `error`, the run a restart cut off is
 * resumed. Its in-flight action (the first unanswered one) is answered as interrupted, effect unknown
 * (`report`), left to run again (`rerun`), or left to a human (`confirm`: status `waiting_for_confirmation`).
 * Like `recordInterruptedRun`, appends to the closed conversation's log; resolves true when the caller
 * should resume the run (the status stays `running`).
 */
export async function recordInterruptedAction(
  conversation: Conversation,
  mode: NonNullable<ConversationOptions['interruptedActions']>,
): Promise<boolean> {
  const [first] = await conversation.pendingActions();
  await conversation.close();
  if (first === undefined || mode === 'rerun') return true;
  if (mode === 'report') {
    await conversation.log.append({ ...interruptedActionEvent(first), parent_id: first.id });
    return true;
  }
  await conversation.log.append(
    createEvent('ConversationStateUpdateEvent', { key: 'execution_status', value: 'waiting_for_confirmation' }),
  );
  return false;
}

/**
 * Resumes a server conversation; one persisted as `running` whose run is not another replica's (no leases) was
 * cut off by a restart: its interruption is recorded (`recordInterruptedRun`, or `recordInterruptedAction` with
 * `deps.interruptedActions`, whose answer goes to `onResumeAfterRestart` at once) and it is resumed again.
 */
export async function resumeRecovering(request: {
  id: string;
  meta: ConversationMeta;
  deps: ManagedConversationDeps;
  /** Told whether the run a restart cut off should be resumed (only with `deps.interruptedActions`). */
  onResumeAfterRestart: (resume: boolean) => void;
}): Promise<Conversation> {
  const { id, meta, deps } = request;
  const options = resumeOptions(id, meta, deps);
  let conversation = await Conversation.resume(meta.id, options);
  // With leases, `running` may be another replica's live run; a dead owner's run is recovered by the next run.
  if (conversation.state.execution_status === 'running' && deps.shared?.leases === undefined) {
    deps.logger.warn(
      { conversationId: id },
      'conversation was running when the server stopped: recording the interruption',
    );
    const mode = deps.interruptedActions;
    if (mode === undefined) await recordInterruptedRun(conversation);
    else request.onResumeAfterRestart(await recordInterruptedAction(conversation, mode));
    conversation = await Conversation.resume(meta.id, options);
  }
  return conversation;
}

/** Our derived state from a base_state.json we wrote, without opening the conversation; else undefined. */
export function stateFromBaseState(
  text: string,
): { state: ConversationState; agent: Record<string, unknown> } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null) return undefined;
  const file = json as { agent?: unknown; agent_state?: { x_state?: unknown } };
  const parsed = conversationStateSchema.safeParse(file.agent_state?.x_state);
  if (!parsed.success) return undefined;
  const agent = typeof file.agent === 'object' && file.agent !== null ? (file.agent as Record<string, unknown>) : {};
  return { state: parsed.data, agent };
}
