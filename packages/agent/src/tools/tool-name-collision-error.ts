import { AgentError } from '../errors.js';

/** An agent was given several tools of one name (compared ignoring case and Unicode compatibility forms). */
export class ToolNameCollisionError extends AgentError {
  /** The tools whose names collide. */
  readonly tools: readonly string[];

  constructor(tools: readonly string[]) {
    super(
      'tool_name_collision',
      `The agent's tools must have distinct names: ${tools.map((name) => `'${name}'`).join(', ')} collide (names are compared ignoring case).`,
    );
    this.tools = tools;
  }
}
