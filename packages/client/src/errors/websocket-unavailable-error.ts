import { ClientError } from '../errors.js';

/**
 * No WebSocket to stream with: the platform has none (Node before 22) and the optional peer `ws` is not
 * installed either.
 */
export class WebSocketUnavailableError extends ClientError {
  constructor(options?: { cause?: unknown }) {
    super(
      'websocket_unavailable',
      'This platform has no global WebSocket (Node < 22) and the optional peer dependency `ws` could not be ' +
        'loaded: install it (npm install ws) to stream conversation events.',
      options,
    );
  }
}
