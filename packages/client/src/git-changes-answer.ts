import type { GitChange } from './git-schemas.js';

/**
 * The header of a `GET /api/git/changes` answer that names the nested repositories git failed on (their changes are
 * missing from the list): each directory name percent-encoded, comma-separated, absent when none was left out.
 */
export const UNREADABLE_REPOSITORIES_HEADER = 'x-git-unreadable-repositories';

/**
 * The changes of a repository, as the array the server sent, and the nested repositories whose changes it lacks.
 * `unreadableRepositories` is not enumerable, so the answer still compares, spreads and serializes as the plain
 * list it always was; an empty array means every repository was read.
 */
export type GitChangesAnswer = GitChange[] & { readonly unreadableRepositories: string[] };

/**
 * The names in the header's value (null when the header is absent). A name whose percent-encoding is broken is kept
 * as sent rather than dropped: that a repository was left out matters more than how its name is spelled.
 */
export function parseUnreadableRepositories(value: string | null): string[] {
  if (value === null || value.trim() === '') return [];
  return value.split(',').map((encoded) => {
    const name = encoded.trim();
    try {
      return decodeURIComponent(name);
    } catch {
      return name;
    }
  });
}

/** `changes` with `unreadableRepositories` defined on it (not enumerable, not reassignable). */
export function gitChangesAnswer(changes: GitChange[], unreadableRepositories: readonly string[]): GitChangesAnswer {
  return Object.defineProperty(changes, 'unreadableRepositories', {
    value: [...unreadableRepositories],
    enumerable: false,
    writable: false,
    configurable: false,
  }) as GitChangesAnswer;
}
