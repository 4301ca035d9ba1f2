import { settleWaiting } from '../approvals/decide.js';
import { type BudgetInput, parseBudget } from '../budgets/index.js';
import type { ConfirmationPolicy } from '../confirmation/confirmation-policy.js';
import { requiresConfirmation } from '../confirmation/requires-confirmation.js';
import { approvalHostOf } from './approval-host-of.js';
import type { RunOptions, RunResult } from './conversation-options.js';
import type { ConversationParts, PartsOwner } from './conversation-parts.js';
import { conversationStepContext, toolsInControl } from './conversation-step-context.js';
import { ConversationAlreadyRunningError } from './errors/conversation-already-running-error.js';
import { takeRunLease } from './ownership/take-run-lease.js';
import { rejectPendingActions } from './pending-decisions.js';
import { pause } from './run-control.js';
import type { RunHost } from './run-host.js';
import { type RunStarter, startRun } from './start-run.js';
import { writeViewCheckpoint } from './view-checkpoint/index.js';
import { writeBaseState } from './write-base-state.js';

/** What the run loop, `condense` and the interrupt and takeover records get of a conversation. */
export function conversationRunHost(owner: PartsOwner, parts: ConversationParts): RunHost {
  const { events, extensions } = parts;
  const hooks = extensions.hooks;
  return {
    conversation: owner,
    state: () => owner.state,
    settle: () => events.settled().then(() => undefined),
    emit: (event) => events.emit(event),
    setStatus: (status) => events.setStatus(status),
    recentEvents: () => parts.fold.recentEvents(),
    stuckDetector: parts.stuck,
    stepContext: (signal) => conversationStepContext(owner, parts, signal, true),
    checkpoint: () => owner.checkpoint(),
    assertOpen: () => parts.lifecycle.assertOpen(),
    popBlockedMessage: (id) => parts.blocks.popIfAny('blocked_messages', id),
    mask: (text) => parts.secrets.mask(text),
    budget: parts.budget,
    agentName: () => parts.roster.nameOf(owner.agent),
    toolsInControl: () => toolsInControl(owner, parts),
    captureWorkspace: () => parts.checkpoints.capture(),
    takePauseRequest: () => parts.runs.takePauseRequest(),
    clientTools: () => parts.options.clientTools?.() ?? [],
    ...(parts.options.approvalRules === undefined
      ? {}
      : {
          approvalRules: {
            rules: parts.options.approvalRules,
            policyRequires: (actions) =>
              requiresConfirmation(actions, owner.state.confirmation_policy as ConfirmationPolicy, {
                ...(parts.security.analyzer === undefined ? {} : { securityAnalyzer: parts.security.analyzer }),
              }),
          },
        }),
    ...(hooks === undefined ? {} : { hooks }),
  };
}

/** `Conversation.run` (see `startRun`); releases the run lease when the run ends, however. */
export function runConversation(owner: PartsOwner, parts: ConversationParts, options: RunOptions): Promise<RunResult> {
  // A bad budget is refused before the run takes anything (InvalidBudgetError).
  const parsedBudget = options.budget === undefined ? undefined : parseBudget(options.budget, 'RunOptions.budget');
  const run = parts.runs.start(
    owner.id,
    options.signal,
    (signal) => startRun(conversationRunStarter(owner, parts), { ...options, parsedBudget }, signal),
    () => parts.ownership.release(),
  );
  // With several agents the result names the one in control (the run may have ended with another than it began).
  if (!parts.roster.transfers) return run;
  return run.then((result) => ({ ...result, agent: parts.roster.nameOf(owner.agent) }));
}

/**
 * `Conversation.navigateTo`: HEAD moves, and the status follows the new branch's pending actions (the status is
 * conversation-wide, the pending actions are the branch's): waiting while the branch has some, so no run executes
 * them undecided (a `finished` or `idle` status let the next step run them with no decision), idle when a
 * waiting conversation moves to a branch with none.
 */
export async function navigateConversation(
  owner: PartsOwner,
  parts: ConversationParts,
  eventId: string | null,
): Promise<void> {
  parts.lifecycle.assertOpen();
  if (owner.isRunning) throw new ConversationAlreadyRunningError(owner.id);
  await parts.branches.navigateTo(eventId);
  await settleWaiting(approvalHostOf(conversationRunHost(owner, parts)));
}

/** Takes the conversation's run lease (see `takeRunLease`). */
export function takeConversationLease(
  owner: PartsOwner,
  parts: ConversationParts,
  signal: AbortSignal | undefined,
  waitMs?: number,
): Promise<'taken' | 'awaiting-human' | undefined> {
  const taker = {
    ownership: parts.ownership,
    interruptedActions: parts.options.interruptedActions ?? 'report',
    catchUp: () => owner.catchUp(),
    runHost: () => conversationRunHost(owner, parts),
  };
  return takeRunLease(taker, signal, waitMs);
}

/** What `startRun` gets of a conversation. */
export function conversationRunStarter(owner: PartsOwner, parts: ConversationParts): RunStarter {
  return {
    state: () => owner.state,
    sandbox: parts.sandbox,
    takeRunLease: (signal, waitMs) => takeConversationLease(owner, parts, signal, waitMs),
    readRecentHistory: () => parts.fold.readRecentHistory(),
    startSession: () => parts.extensions.startSession(),
    runHost: () => conversationRunHost(owner, parts),
    leaseSignal: () => parts.ownership.lease?.signal,
    beginBudget: (budget) => parts.budget.beginRun(budget),
    endBudget: () => parts.budget.endRun(),
  };
}

/**
 * Answers every pending action with a UserRejectObservation (see `rejectPendingActions`). Shared by several
 * processes or replicas: decided and recorded under the conversation's lease, on the state as the log has it,
 * so two concurrent rejections (or a rejection and a run) apply once.
 */
export async function rejectConversationActions(
  owner: PartsOwner,
  parts: ConversationParts,
  reason: string,
  principal?: string,
): Promise<void> {
  parts.lifecycle.assertOpen();
  const { ownership } = parts;
  if (ownership.shared && !owner.isRunning && ownership.lease === undefined) {
    await takeConversationLease(owner, parts, undefined);
    try {
      return await rejectConversationActions(owner, parts, reason, principal);
    } finally {
      await ownership.release();
    }
  }
  await rejectPendingActions(conversationRunHost(owner, parts), reason, principal);
  if (!owner.isRunning) await owner.checkpoint();
}

/**
 * Pauses the conversation between steps (see `pause`). A run in progress that still waits for confirmation is about
 * to approve the waiting actions: it records the pause once they are approved, before its step, so none runs.
 */
export async function pauseConversation(owner: PartsOwner, parts: ConversationParts): Promise<void> {
  if (owner.state.execution_status === 'waiting_for_confirmation' && parts.runs.requestPause()) return;
  return pause({
    state: () => owner.state,
    emit: (event) => parts.events.emit(event),
    checkpointUnlessRunning: async () => {
      if (!owner.isRunning) await owner.checkpoint();
    },
  });
}

/**
 * Writes base_state.json (after the held stats updates): the constant-size checkpoint of the state; then the view's.
 * An idle instance of a shared conversation takes the lease for it and first folds what other owners appended, so
 * it never writes an older state over a newer owner's; while another owner holds the lease it writes nothing (that
 * owner's own checkpoint, made after it folds this instance's events, is the newer one).
 */
export async function checkpointConversation(owner: PartsOwner, parts: ConversationParts): Promise<void> {
  const write = async (): Promise<void> => {
    await parts.events.flushHeld();
    await writeBaseState(owner, parts);
    await writeViewCheckpoint(owner.store, owner.directory, parts.fold.builtView, owner.state, owner.log);
  };
  const { ownership } = parts;
  if (!ownership.shared || owner.isRunning || ownership.lease !== undefined) return write();
  await ownership.briefly(
    async () => {
      await parts.events.catchUp();
      await write();
    },
    { held: 'skip' },
  );
}

/**
 * Sets the conversation's budget in x_budget.json (`Conversation.setBudget`, the `budget` option): on an idle
 * instance of a shared conversation under the lease, taken for it (a fresh read, then the write, with no owner
 * writing between), and refused with `ConversationAlreadyRunningError` while another owner holds it past
 * `leaseWaitMs` (its run reads the record it began with: a budget set under it would be overwritten or ignored).
 */
export async function setConversationBudget(
  parts: ConversationParts,
  budget: BudgetInput | null,
  where?: string,
): Promise<void> {
  await parts.ownership.briefly(() => parts.budget.set(budget, where), { held: 'refuse' });
}
