import { ClientError } from '../errors.js';

/** A remote run ended in `error` or `stuck`. `detail` is the last ConversationErrorEvent as `code: detail`. */
export class RemoteRunError extends ClientError {
  readonly conversationId: string;
  readonly status: string;
  readonly detail: string | undefined;

  constructor(init: { conversationId: string; status: string; detail: string | undefined }) {
    const suffix = init.detail === undefined ? '' : `: ${init.detail}`;
    super('remote_run_failed', `Run of conversation ${init.conversationId} ended with status ${init.status}${suffix}`);
    this.conversationId = init.conversationId;
    this.status = init.status;
    this.detail = init.detail;
  }
}
