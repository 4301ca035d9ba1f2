import { ClientError } from '../errors.js';

/** An HTTP request to the agent server failed (status ≥ 400, or no response at all: `status` 0). */
export class RemoteRequestError extends ClientError {
  readonly status: number;
  /** The server's `detail` (or the response text, or the network error's message). */
  readonly detail: string;
  readonly method: string;
  readonly url: string;

  constructor(init: { method: string; url: string; status: number; detail: string; cause?: unknown }) {
    const what = init.status === 0 ? 'failed' : `answered ${init.status}`;
    super('remote_request_failed', `${init.method} ${init.url} ${what}: ${init.detail}`, { cause: init.cause });
    this.status = init.status;
    this.detail = init.detail;
    this.method = init.method;
    this.url = init.url;
  }
}
