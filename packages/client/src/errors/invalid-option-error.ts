import { ClientError } from '../errors.js';

/** A call was given an option it cannot use (`option` names it): refused before any request is sent. */
export class InvalidOptionError extends ClientError {
  /** The option, as the call names it (e.g. `limit`). */
  readonly option: string;
  readonly value: unknown;

  constructor(init: { call: string; option: string; value: unknown; expected: string }) {
    super(
      'invalid_option',
      `${init.call}: option \`${init.option}\` must be ${init.expected}, got ${describe(init.value)}`,
    );
    this.option = init.option;
    this.value = init.value;
  }
}

function describe(value: unknown): string {
  return typeof value === 'number' || typeof value === 'bigint'
    ? String(value)
    : (JSON.stringify(value) ?? String(value));
}
