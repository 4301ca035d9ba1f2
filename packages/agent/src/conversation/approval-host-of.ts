import type { ApprovalHost } from '../approvals/approval-host.js';
import type { RunHost } from './run-host.js';

/** The conversation behind a run host, as deciding on its pending actions sees it. */
export function approvalHostOf(host: RunHost): ApprovalHost {
  const conversation = host.conversation;
  return {
    conversationId: conversation.id,
    store: conversation.store,
    directory: conversation.directory,
    // The agent in control when asked (control passes with `transfer_to_agent`), with the tools the roster gives
    // it, and the tools the client runs: an edited call is checked against what that agent can call.
    get tools() {
      return [...(host.toolsInControl?.() ?? conversation.agent.tools), ...(host.clientTools?.() ?? [])];
    },
    state: () => host.state(),
    pendingActions: () => conversation.pendingActions(),
    getEvent: (id) =>
      conversation.log.getById(id).then(
        (event) => event,
        () => undefined,
      ),
    emit: (event) => host.emit(event),
    setStatus: (status) => host.setStatus(status),
  };
}
