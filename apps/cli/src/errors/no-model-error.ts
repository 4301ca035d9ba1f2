import { CliError, ExitCode } from '../errors.js';

/** `x run` without `--demo` and without a model: nothing would run, so nothing is started. */
export class NoModelError extends CliError {
  constructor() {
    super('no_model', 'No model is configured, so there is nothing to run the task with.', {
      exitCode: ExitCode.failure,
      hint: 'Set OPENAI_API_KEY (and OPENAI_BASE_URL for another OpenAI-compatible endpoint, --model or X_MODEL for the model), or try `x run --demo` for the offline demo.',
    });
  }
}
