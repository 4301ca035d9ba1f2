import { AgentError } from '../../errors.js';

/**
 * An option of `runEvalSuite` or `compareToBaseline`, a count given to `passAtK`/`passHatK`, or a scorer's threshold
 * or limit given in code (`trajectory`, `llmJudge`, `costUnder`, `durationUnder`), out of its range (`runs: 0`,
 * `k: 1.5`, `tolerance: NaN`, `minRecall: 2`...). A suite file's own values are checked by `InvalidEvalSuiteError`.
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
