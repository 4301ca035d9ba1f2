import { type Conversation, readDecision } from '@x/agent';
import { currentCaller } from '../security/request-caller.js';
import { DeciderNotAllowedError } from './errors/decider-not-allowed-error.js';

/**
 * Refuses (`DeciderNotAllowedError`, 403) a caller outside `approvalDeciders` what would decide on pending
 * actions. Checked where the deciding happens, not per route: a run started on a conversation waiting for
 * confirmation runs its pending actions (the reference's `run` semantics), so every way to start one (REST `run`
 * or a message, the AG-UI, A2A, MCP and OpenAI faces, an event socket frame) is an approval. Actions already decided
 * (by a decider through `/decisions`, or a client tool's result) are no longer the caller's to approve. Work that
 * runs for no caller (a restart, a recovery sweep) approves nothing either.
 */
export async function assertMayConfirm(
  conversation: Conversation,
  deciders: readonly string[] | undefined,
): Promise<void> {
  if (deciders === undefined || conversation.state.execution_status !== 'waiting_for_confirmation') return;
  const principal = currentCaller()?.principal;
  if (principal !== undefined && deciders.includes(principal)) return;
  const pending = await conversation.pendingActions();
  const decided = await Promise.all(
    pending.map((action) => readDecision(conversation.store, conversation.directory, action.id)),
  );
  if (decided.every((record) => record !== undefined)) return;
  throw new DeciderNotAllowedError(principal ?? 'none');
}

/**
 * Refuses the current caller, when it is outside `approvalDeciders`, a rejection of pending actions (a decision
 * too: the faces reject on the agent's conversation directly, so they call this first). Returns the principal to
 * record the rejection with; work for no caller (a restart, an embedding's own code) is not refused.
 */
export function assertMayDecide(): string | undefined {
  const caller = currentCaller();
  if (caller !== undefined && !caller.mayDecide) throw new DeciderNotAllowedError(caller.principal);
  return caller?.principal;
}
