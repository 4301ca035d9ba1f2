import { CliError, ExitCode } from '../errors.js';

/** `x run` without `--demo` and without a model: nothing would run, so nothing is started. */
export class NoModelError extends CliError {
  constructor() {
    super('no_model', 'No model is configured, so there is nothing to run the task with.', {
      exitCode: ExitCode.failure,
      hint: 'Set a provider key (OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY; --model or X_MODEL for the model, *_BASE_URL for another endpoint), or try `x run --demo` for the offline demo.',
    });
  }
}
