const marker = Symbol.for('@x/server.error');

/** Base class of every error thrown by @x/server. Subclasses narrow `code`. */
export class ServerError extends Error {
  readonly [marker] = true;
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }

  /** True for any ServerError, even one created by another copy of @x/server (duplicate installs). */
  /**
   * True for an error of this class or a subclass, also one created by another copy of the package
   * (duplicate installs): the base is recognised by a global symbol, a subclass by its class name.
   * `StoreError.isInstance(e)` matches every store error, `FileNotFoundError.isInstance(e)` only those.
   */
  static isInstance<T extends abstract new (...args: never[]) => ServerError>(
    this: T,
    value: unknown,
  ): value is InstanceType<T> {
    if (typeof value !== 'object' || value === null) return false;
    if ((value as Record<symbol, unknown>)[marker] !== true) return false;
    if ((this as unknown) === ServerError) return true;
    for (let proto = Object.getPrototypeOf(value); proto !== null; proto = Object.getPrototypeOf(proto)) {
      if ((proto as { constructor?: { name?: string } }).constructor?.name === this.name) return true;
    }
    return false;
  }
}
