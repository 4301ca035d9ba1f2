import { ServerError } from '../errors.js';

/** A WebSocket client frame that is neither a Message nor an auth frame. Reported on that socket only. */
export class InvalidClientFrameError extends ServerError {
  constructor(problem: string, options?: { cause?: unknown }) {
    super('invalid_client_frame', `Invalid client frame: ${problem}`, options);
  }
}
