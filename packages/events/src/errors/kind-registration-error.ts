import { EventsError } from '../errors.js';

/** A kind could not be registered: it is built in, or already registered with a different schema. */
export class KindRegistrationError extends EventsError {
  /** The kind that was being registered. */
  readonly kind: string;

  constructor(kind: string, reason: string) {
    super('kind_conflict', `Cannot register kind ${kind}: ${reason}`);
    this.kind = kind;
  }
}
