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
  static isInstance(value: unknown): value is ServerError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
