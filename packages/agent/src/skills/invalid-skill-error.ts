import { AgentError } from '../errors.js';

/** A skill file that cannot be read as a skill (broken frontmatter, wrong field types). */
export class InvalidSkillError extends AgentError {
  /** The file (or `agent_context.skills[i]`) that was wrong. */
  readonly source: string;

  constructor(source: string, problem: string, options?: { cause?: unknown }) {
    super('invalid_skill', `Invalid skill ${source}: ${problem}`, options);
    this.source = source;
  }
}
