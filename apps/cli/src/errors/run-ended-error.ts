import { CliError, ExitCode } from '../errors.js';

/** A run ended without finishing (error, stuck, or left waiting for confirmation). Already reported. */
export class RunEndedError extends CliError {
  readonly status: string;

  constructor(status: string, message: string, options: { hint?: string; interrupted?: boolean } = {}) {
    super('run_not_finished', message, {
      exitCode: options.interrupted === true ? ExitCode.interrupted : ExitCode.failure,
      ...(options.hint === undefined ? {} : { hint: options.hint }),
    });
    this.status = status;
  }
}
