import { AgentError } from '../errors.js';

/** An MCP configuration that does not have the reference's `mcp_config` shape. */
export class InvalidMcpConfigError extends AgentError {
  /** Where the config came from (a file path, `mcp_config`, a request field). */
  readonly source: string;

  constructor(source: string, problem: string, options?: { cause?: unknown }) {
    super('invalid_mcp_config', `Invalid MCP configuration in ${source}: ${problem}`, options);
    this.source = source;
  }
}
