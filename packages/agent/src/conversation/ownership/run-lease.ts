import { type Lease, LeaseHeldError, type Leases } from '@x/store';
import { ConversationAlreadyRunningError } from '../errors/conversation-already-running-error.js';

/**
 * Takes the conversation's lease for one run. Held by another process or replica: waits up to
 * `waitMs`, then fails with `ConversationAlreadyRunningError` naming the holder. Without `leases`,
 * no lease (one process per conversation is the caller's promise, as before).
 */
export async function acquireRunLease(options: {
  leases: Leases | undefined;
  conversationId: string;
  key: string;
  waitMs: number | undefined;
  signal: AbortSignal | undefined;
}): Promise<Lease | undefined> {
  const { leases } = options;
  if (leases === undefined) return undefined;
  try {
    return await leases.acquire(options.key, {
      ...(options.waitMs === undefined ? {} : { waitMs: options.waitMs }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    if (LeaseHeldError.isInstance(error)) {
      throw new ConversationAlreadyRunningError(options.conversationId, { owner: error.owner, cause: error });
    }
    throw error;
  }
}
