import { AgentError } from '../errors.js';

/** A condenser configuration (options or persisted JSON) was invalid. */
export class InvalidCondenserConfigError extends AgentError {
  /** Each problem names its field (JSON path for persisted configs) and the value given. */
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super('invalid_condenser_config', `Invalid condenser configuration: ${problems.join('; ')}`);
    this.problems = problems;
  }
}
