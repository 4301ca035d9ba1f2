import { ClientError } from '../errors.js';

/** The event stream closed and reconnecting is off (or gave up after `maxAttempts`). */
export class RemoteStreamClosedError extends ClientError {
  readonly closeCode: number;
  readonly reason: string;

  constructor(init: { url: string; closeCode: number; reason: string; cause?: unknown }) {
    const why = init.reason === '' ? '' : ` (${init.reason})`;
    super('remote_stream_closed', `The event stream ${init.url} closed with ${init.closeCode}${why}`, {
      cause: init.cause,
    });
    this.closeCode = init.closeCode;
    this.reason = init.reason;
  }
}
