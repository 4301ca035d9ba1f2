const marker = Symbol.for('@x/agent.error');

/** Base class of every error thrown by @x/agent. Subclasses narrow `code`. */
export class AgentError extends Error {
  readonly [marker] = true;
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }

  /** True for any AgentError, even one created by another copy of @x/agent (duplicate installs). */
  static isInstance(value: unknown): value is AgentError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
