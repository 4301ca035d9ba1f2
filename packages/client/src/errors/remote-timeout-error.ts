import { ClientError } from '../errors.js';

/** Waiting on the server took longer than allowed (`what` says for what). */
export class RemoteTimeoutError extends ClientError {
  readonly timeoutMs: number;

  constructor(what: string, timeoutMs: number) {
    super('remote_timeout', `Timed out after ${timeoutMs} ms waiting for ${what}`);
    this.timeoutMs = timeoutMs;
  }
}
