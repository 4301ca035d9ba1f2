import { CliError, ExitCode } from '../errors.js';

/** The command line is wrong in a way commander cannot check (a bad value, options that conflict). */
export class UsageError extends CliError {
  constructor(message: string, options: { hint?: string } = {}) {
    super('usage', message, { exitCode: ExitCode.usage, ...options });
  }
}
