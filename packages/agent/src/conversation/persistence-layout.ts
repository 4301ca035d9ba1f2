import { homedir } from 'node:os';
import { join } from 'node:path';
import { InvalidPathError, validateStorePath } from '@x/store';
import { InvalidConversationIdError } from './errors/invalid-conversation-id-error.js';

/**
 * `3f2c…-…` → `3f2c…` (32 hex): the directory name of a conversation, as the reference names it. Any other id is
 * allowed too (the same rule: hyphens dropped, lower case) when that name is one store path segment;
 * `InvalidConversationIdError` otherwise.
 */
export function conversationDirName(id: string): string {
  if (typeof id !== 'string') throw new InvalidConversationIdError(String(id), `expected a string, got ${typeof id}`);
  const name = id.replace(/-/g, '').toLowerCase();
  const problem = dirNameProblem(name);
  if (problem !== undefined) throw new InvalidConversationIdError(id, problem);
  return name;
}

// C0 and C1 control characters: legal in file names, but a log line or terminal would show them as commands.
const controlCharacter = /\p{Cc}/u;

function dirNameProblem(name: string): string | undefined {
  if (name === '') return 'it names no directory (empty once its hyphens are dropped)';
  if (name.includes('/')) return 'contains "/" (a conversation directory is one path segment)';
  if (controlCharacter.test(name)) return 'contains a control character';
  try {
    validateStorePath(name);
  } catch (error) {
    if (InvalidPathError.isInstance(error)) return error.reason;
    throw error;
  }
  return undefined;
}

/** `3f2c…` (32 hex) → hyphenated UUID; other ids are returned unchanged. */
export function hyphenateConversationId(id: string): string {
  if (!/^[0-9a-f]{32}$/i.test(id)) return id;
  const hex = id.toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Where conversations are persisted by default: `$X_HOME/conversations`, else `~/.x/conversations`. */
export function defaultPersistenceDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.X_HOME ?? join(homedir(), '.x'), 'conversations');
}
