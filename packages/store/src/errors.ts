const marker = Symbol.for('@x/store.error');

/** Base class of every error thrown by @x/store. Subclasses narrow `code`. */
export class StoreError extends Error {
  readonly [marker] = true;
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }

  /** True for any StoreError, even one created by another copy of @x/store (duplicate installs). */
  static isInstance(value: unknown): value is StoreError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
