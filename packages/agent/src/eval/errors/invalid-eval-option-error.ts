import { AgentError } from '../../errors.js';

/**
 * An option of `runEvalSuite` or `compareToBaseline`, or a count given to `passAtK`/`passHatK`, out of its range
 * (`runs: 0`, `k: 1.5`, `tolerance: NaN`...).
 */
export class InvalidEvalOptionError extends AgentError {
  declare readonly code: 'invalid_eval_option';
  /** The option's name, e.g. `runs`. */
  readonly option: string;

  constructor(option: string, value: unknown, expected: string) {
    super('invalid_eval_option', `option ${option}: expected ${expected}, got ${String(value)}`);
    this.option = option;
  }
}
