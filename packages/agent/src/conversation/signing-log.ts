import type { KeyObject } from 'node:crypto';
import { createSigningEventLog, type EventLogLike, type FileStore } from '@x/store';
import type { Agent } from '../agent/agent.js';
import type { AgentRoster } from '../handoff/agent-roster.js';
import type { ConversationOptions } from './conversation-options.js';

/**
 * The agents of a conversation, and which is in control (`transfer_to_agent`) when an event is appended: the
 * conversation sets `inControl` once it exists (its state, folded from the events appended so far, names the agent).
 */
export interface SigningControl {
  roster: AgentRoster;
  inControl?: (() => Agent) | undefined;
}

/**
 * The conversation's log, signing each event it appends when a key is given (`ConversationOptions.signingKey`,
 * else the `signingKey` of the agent in control; `approverSigningKey` for the user's events); the log itself
 * otherwise. After a transfer the agent taking over signs with its own key (the `active_agent` update itself is the
 * handing-over agent's). Signatures go to `<dir>/.chain/signatures/` in the conversation's store, whatever holds the
 * events. With only an approver key the agent's events are left unsigned, so `verifyEventSignatures` reports such a
 * log `incomplete` unless told `require: 'none'`.
 */
export function withSigning(
  log: EventLogLike,
  options: Partial<Pick<ConversationOptions, 'agent' | 'signingKey' | 'approverSigningKey'>>,
  location: { store: FileStore; dir: string },
  control?: SigningControl,
): EventLogLike {
  const agentKey = (): KeyObject | undefined => {
    if (options.signingKey !== undefined) return options.signingKey;
    return (control?.inControl?.() ?? options.agent)?.signingKey;
  };
  const anyAgentKey = (control?.roster.agents ?? []).some((agent) => agent.signingKey !== undefined);
  if (agentKey() === undefined && options.approverSigningKey === undefined && !anyAgentKey) return log;
  return createSigningEventLog(log, {
    store: location.store,
    dir: location.dir,
    // Called before each append, with the state of the events before it: the `active_agent` update is signed by
    // the agent handing over, what follows by the one taking over.
    signer: (event) => (event.source === 'user' ? (options.approverSigningKey ?? agentKey()) : agentKey()),
  });
}
