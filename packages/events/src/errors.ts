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
  /**
   * True for an error of this class or a subclass, also one created by another copy of the package
   * (duplicate installs): the base is recognised by a global symbol, a subclass by its class name.
   * `StoreError.isInstance(e)` matches every store error, `FileNotFoundError.isInstance(e)` only those.
   */
  static isInstance<T extends abstract new (...args: never[]) => EventsError>(
    this: T,
    value: unknown,
  ): value is InstanceType<T> {
    if (typeof value !== 'object' || value === null) return false;
    if ((value as Record<symbol, unknown>)[marker] !== true) return false;
    if ((this as unknown) === EventsError) return true;
    for (let proto = Object.getPrototypeOf(value); proto !== null; proto = Object.getPrototypeOf(proto)) {
      if ((proto as { constructor?: { name?: string } }).constructor?.name === this.name) return true;
    }
    return false;
  }
}
