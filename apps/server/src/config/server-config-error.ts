import { ServerError } from '../errors.js';

/**
 * A server configuration that cannot be used: an environment variable that does not parse (a port that is no
 * number, a flag that is neither true nor false, a JSON file that cannot be read), or a value the schema refuses.
 * The message names the setting and, when the value came from the environment, the variable that set it.
 */
export class ServerConfigError extends ServerError {
  /** The configuration field that is wrong (`port`, `mcpConversation.agent.llm`, …). */
  readonly setting: string;
  /** The environment variable the wrong value came from, when it came from one. */
  readonly variable: string | undefined;

  constructor(options: { setting: string; variable?: string | undefined; message: string; cause?: unknown }) {
    super('invalid_server_config', options.message, options.cause === undefined ? {} : { cause: options.cause });
    this.setting = options.setting;
    this.variable = options.variable;
  }
}
