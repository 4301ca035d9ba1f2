import { createSigningEventLog, type EventLogLike, type FileStore } from '@x/store';
import type { ConversationOptions } from './conversation-options.js';

/**
 * The conversation's log, signing each event it appends when a key is given (`ConversationOptions.signingKey`,
 * else the agent's `signingKey`; `approverSigningKey` for the user's events); the log itself otherwise. Signatures go
 * to `<dir>/.chain/signatures/` in the conversation's store, whatever holds the events. With only an approver key the
 * agent's events are left unsigned, so `verifyEventSignatures` reports such a log `incomplete` unless told
 * `require: 'none'`.
 */
export function withSigning(
  log: EventLogLike,
  options: Partial<Pick<ConversationOptions, 'agent' | 'signingKey' | 'approverSigningKey'>>,
  location: { store: FileStore; dir: string },
): EventLogLike {
  const agentKey = options.signingKey ?? options.agent?.signingKey;
  const approverKey = options.approverSigningKey ?? agentKey;
  if (agentKey === undefined && approverKey === undefined) return log;
  return createSigningEventLog(log, {
    store: location.store,
    dir: location.dir,
    signer: (event) => (event.source === 'user' ? approverKey : agentKey),
  });
}
