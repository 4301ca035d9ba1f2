import { recoverEditedActions } from '../approvals/decide.js';
import type { Budget } from '../budgets/index.js';
import type { SandboxAccess } from '../sandboxing/sandbox-access.js';
import type { ConversationState } from '../state/conversation-state.js';
import { approvalHostOf } from './approval-host-of.js';
import type { RunOptions, RunResult } from './conversation-options.js';
import type { RunHost } from './run-host.js';
import { runLoop } from './run-loop.js';

/** What starting a run needs of the conversation. */
export interface RunStarter {
  state(): ConversationState;
  /** The conversation's sandbox (opened by the first part that needs it, not here). */
  readonly sandbox: SandboxAccess & { recordPolicy(): Promise<void>; throwIfUnavailable(): void };
  /** Takes the run lease (see `takeRunLease`). */
  takeRunLease(signal: AbortSignal, waitMs: number | undefined): Promise<'taken' | 'awaiting-human' | undefined>;
  /** Reads the recent history stuck detection needs (once, on the first run). */
  readRecentHistory(): Promise<void>;
  /** Starts MCP servers and skills (once) and the hooks' session. */
  startSession(): Promise<void>;
  runHost(): RunHost;
  /** Aborts when the run lease is lost. */
  leaseSignal(): AbortSignal | undefined;
  /** Reads the conversation's budget (as the store has it now) and starts the run's own. */
  beginBudget(budget: Budget | undefined): Promise<void>;
  endBudget(): void;
}

/** `Conversation.run` once the run is registered: the lease, the sandbox, the history, the extensions, the loop. */
export async function startRun(
  starter: RunStarter,
  options: RunOptions & { parsedBudget?: Budget },
  signal: AbortSignal,
): Promise<RunResult> {
  const took = await starter.takeRunLease(signal, options.leaseWaitMs);
  // A dead owner's action waits for a human (interruptedActions: 'confirm'): nothing runs now.
  if (took === 'awaiting-human') {
    return { status: starter.state().execution_status, iterations: 0, reachedIterationLimit: false };
  }
  await recoverEditedActions(approvalHostOf(starter.runHost()));
  // The policy this run's processes run under is recorded now, as opening the sandbox here used to.
  await starter.sandbox.recordPolicy();
  await starter.readRecentHistory();
  await starter.startSession();
  // The sandbox opens on first need (an MCP stdio server, a hook, a tool), not here: a run whose tools start no
  // process never probes bubblewrap. An MCP server or a session hook that could not have one records its
  // failure without throwing; the run fails here instead, before any step (SandboxUnavailableError).
  starter.sandbox.throwIfUnavailable();
  // A lease taken over (noticed at the holder's next heartbeat) stops the run at once: the model call and
  // the tool in flight are aborted, rather than going on until the next append is refused by the fence.
  await starter.beginBudget(options.parsedBudget);
  try {
    return await runLoop(starter.runHost(), { ...options, signal }, starter.leaseSignal());
  } finally {
    starter.endBudget();
  }
}
