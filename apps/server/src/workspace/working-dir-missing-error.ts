import { ServerError } from '../errors.js';

/**
 * The working directory of a conversation has been removed from disk: a file route refuses (404) to write into it
 * rather than make it again, empty, as if the conversation's files were still there.
 */
export class WorkingDirMissingError extends ServerError {
  declare readonly code: 'working_dir_missing';
  readonly statusCode = 404;
  readonly workingDir: string;
  readonly conversationId: string;

  constructor(options: { workingDir: string; conversationId: string }) {
    super(
      'working_dir_missing',
      `The working directory ${options.workingDir} of conversation ${options.conversationId} has been removed; an upload does not make it again`,
    );
    this.workingDir = options.workingDir;
    this.conversationId = options.conversationId;
  }
}
