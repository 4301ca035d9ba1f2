import { CliError, ExitCode } from '../errors.js';

/** A conversation id prefix matches more than one conversation. */
export class AmbiguousConversationError extends CliError {
  readonly matches: readonly string[];

  constructor(prefix: string, matches: readonly string[]) {
    super(
      'ambiguous_conversation',
      `'${prefix}' matches ${matches.length} conversations: ${matches.slice(0, 5).join(', ')}${matches.length > 5 ? ', …' : ''}.`,
      {
        exitCode: ExitCode.usage,
        hint: 'Give more characters of the id.',
      },
    );
    this.matches = matches;
  }
}
