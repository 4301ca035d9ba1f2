import { ServerError } from '../errors.js';

/** Refusal to listen beyond loopback without a session key (and without `insecureNoKey`). */
export class InsecureBindError extends ServerError {
  declare readonly code: 'insecure_bind';
  readonly host: string;

  constructor(host: string) {
    super(
      'insecure_bind',
      `Refusing to listen on ${host} without a session API key: anyone who can reach it could run commands on this machine. ` +
        'Set a key (--api-key or SESSION_API_KEY), bind 127.0.0.1, or pass --insecure-no-key (insecureNoKey: true) if you really mean it.',
    );
    this.host = host;
  }
}
