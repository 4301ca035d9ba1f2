import type { ConversationOptions } from '../conversation-options.js';
import type { RunHost } from '../run-host.js';
import { answerInFlightAction } from './interrupted-action.js';
import type { RunOwnership } from './run-ownership.js';

/** What taking a run lease needs of the conversation. */
export interface LeaseTaker {
  readonly ownership: RunOwnership;
  /** What a dead owner's action in flight becomes (`ConversationOptions.interruptedActions`). */
  readonly interruptedActions: NonNullable<ConversationOptions['interruptedActions']>;
  /** Folds what other owners appended. */
  catchUp(): Promise<void>;
  runHost(): RunHost;
}

/**
 * Takes the conversation's run lease and folds what earlier owners appended meanwhile. Undefined without leases;
 * `'awaiting-human'` when a dead owner's action waits for a human (`interruptedActions: 'confirm'`).
 */
export async function takeRunLease(
  taker: LeaseTaker,
  signal: AbortSignal | undefined,
  waitMs?: number,
): Promise<'taken' | 'awaiting-human' | undefined> {
  const lease = await taker.ownership.take(signal, waitMs);
  if (lease === undefined) return undefined;
  await taker.catchUp();
  if (lease.previous !== 'expired') return 'taken';
  return answerInFlightAction(taker.runHost(), taker.interruptedActions);
}
