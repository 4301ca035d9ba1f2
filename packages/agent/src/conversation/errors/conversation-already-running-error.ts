import { AgentError } from '../../errors.js';

/** A second `run` while one is in progress on the same conversation, in this process or (with leases) any other. */
export class ConversationAlreadyRunningError extends AgentError {
  readonly conversationId: string;
  /** Who runs it, when another process or replica does (the lease holder's name). */
  readonly owner: string | undefined;

  constructor(conversationId: string, options: { owner?: string; cause?: unknown } = {}) {
    super(
      'conversation_running',
      options.owner === undefined
        ? `Conversation ${conversationId} is already running. Wait for the current run to end, or pause it first.`
        : `Conversation ${conversationId} is already running in '${options.owner}'. Wait for that run to end, or pass leaseWaitMs to wait for it.`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.conversationId = conversationId;
    this.owner = options.owner;
  }
}
