import { CliError, ExitCode } from '../errors.js';

/** The `<conversation>` argument names no conversation: says where it looked. */
export class ConversationNotFoundError extends CliError {
  readonly conversation: string;
  readonly searched: readonly string[];

  constructor(conversation: string, searched: readonly string[]) {
    super('conversation_not_found', `No conversation '${conversation}' (looked in ${searched.join(', ')}).`, {
      exitCode: ExitCode.notFound,
      hint: 'Pass a conversation id (as printed by `x run`, or a unique prefix of it) or the path of a conversation directory; use --data-dir if it lives elsewhere. `x list` shows the conversations in the default location.',
    });
    this.conversation = conversation;
    this.searched = searched;
  }
}
