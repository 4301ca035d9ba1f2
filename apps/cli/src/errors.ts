const marker = Symbol.for('@x/cli.error');

/** Base class of every error thrown by @x/cli. Subclasses narrow `code`. */
export class CliError extends Error {
  readonly [marker] = true;
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }

  /** True for any CliError, even one created by another copy of @x/cli (duplicate installs). */
  static isInstance(value: unknown): value is CliError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
