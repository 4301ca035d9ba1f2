import { userInfo } from 'node:os';
import type { Conversation } from '@x/agent';
import type { CliContext } from '../context.js';
import { askDecision } from './confirm-prompt.js';

/**
 * Runs until the conversation stops; each stop for confirmation asks (y/n/d/e/s, see `askDecision`) and runs
 * again. Decisions are recorded with the local user as principal.
 */
export async function runWithConfirmation(
  conversation: Conversation,
  context: CliContext,
  signal: AbortSignal,
): Promise<void> {
  let first = true;
  for (;;) {
    if (conversation.state.execution_status === 'waiting_for_confirmation') {
      const decided = await decideAtPrompt(conversation, context);
      if (!decided) return;
    } else if (!first) {
      return;
    }
    first = false;
    await conversation.run({ signal });
  }
}

/** Asks until a decision is recorded (an edit the tool refuses is shown and asked again); false without an answer. */
async function decideAtPrompt(conversation: Conversation, context: CliContext): Promise<boolean> {
  const principal = `local:${userInfo().username}`;
  for (;;) {
    const pending = await conversation.pendingActions();
    const answer = await askDecision(context.output, pending);
    if (answer === undefined) return false;
    // A rejection is recorded as UserRejectObservations, then the run continues so the model sees it.
    if (answer.kind === 'reject') {
      await conversation.rejectPendingActions();
      return true;
    }
    const decision =
      answer.kind === 'approve'
        ? { kind: 'approve' as const }
        : answer.kind === 'deny'
          ? { kind: 'deny' as const, reason: answer.reason }
          : answer.kind === 'edit'
            ? { kind: 'approve' as const, arguments: answer.arguments }
            : { kind: 'substitute' as const, result: { content: answer.result } };
    try {
      await conversation.decide(
        pending.map((action) => ({ action_id: action.id, decision })),
        { principal },
      );
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'invalid_decision') throw error;
      context.output.error(context.output.errorColors.red((error as Error).message));
    }
  }
}
