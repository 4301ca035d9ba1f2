const marker = Symbol.for('@x/events.error');

/** Base class of every error thrown by @x/events. Subclasses narrow `code`. */
export class EventsError extends Error {
  readonly [marker] = true;
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }

  /** True for any EventsError, even one created by another copy of @x/events (duplicate installs). */
  static isInstance(value: unknown): value is EventsError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
