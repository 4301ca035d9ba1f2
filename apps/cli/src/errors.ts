const marker = Symbol.for('@x/cli.error');

/** Exit codes of the `x` command. */
export const ExitCode = {
  ok: 0,
  /** The run ended in error or stuck (or was left waiting), or an operation failed. */
  failure: 1,
  /** The command line was wrong. */
  usage: 2,
  /** The conversation (or file) named on the command line does not exist. */
  notFound: 3,
  /**
   * Some files of the conversation could not be read (corrupt, truncated, not a regular file, a link):
   * everything else was shown, and each unreadable file is named on stderr with its reason.
   */
  damaged: 4,
  /** `x verify`: the conversation's event chain (or its signed head) does not verify. */
  tampered: 5,
  /**
   * `x run`: the run stopped before a model call on its money budget (`--max-budget`), or on a model of unknown
   * cost under one. Raise it (`x run --resume <id> --max-budget <more>`) to continue.
   */
  budget: 6,
  /** Interrupted with Ctrl-C (128 + SIGINT). */
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** Base class of every error thrown by @x/cli. Subclasses narrow `code` and pick the exit code. */
export class CliError extends Error {
  readonly [marker] = true;
  readonly code: string;
  /** The process exit code this error ends the command with. */
  readonly exitCode: number;
  /** What the user can do about it, printed under the message. */
  readonly hint: string | undefined;

  constructor(code: string, message: string, options?: { cause?: unknown; exitCode?: number; hint?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.exitCode = options?.exitCode ?? ExitCode.failure;
    this.hint = options?.hint;
  }

  /**
   * True for an error of this class or a subclass, also one created by another copy of the package
   * (duplicate installs): the base is recognised by a global symbol, a subclass by its class name.
   * `StoreError.isInstance(e)` matches every store error, `FileNotFoundError.isInstance(e)` only those.
   */
  static isInstance<T extends abstract new (...args: never[]) => CliError>(
    this: T,
    value: unknown,
  ): value is InstanceType<T> {
    if (typeof value !== 'object' || value === null) return false;
    if ((value as Record<symbol, unknown>)[marker] !== true) return false;
    if ((this as unknown) === CliError) return true;
    for (let proto = Object.getPrototypeOf(value); proto !== null; proto = Object.getPrototypeOf(proto)) {
      if ((proto as { constructor?: { name?: string } }).constructor?.name === this.name) return true;
    }
    return false;
  }
}
