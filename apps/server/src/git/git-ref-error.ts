import { clientText } from '../internal/client-text.js';
import { GitError } from './git-error.js';

/** A `ref` that git would read as an option (it starts with `-`): refused before git runs. */
export class GitRefError extends GitError {
  constructor(ref: string) {
    super('git_ref', `ref '${clientText(ref)}' starts with '-': a ref must name a revision, not an option`);
  }
}
