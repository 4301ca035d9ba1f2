import { homedir } from 'node:os';
import { join } from 'node:path';

/** `3f2c…-…` → `3f2c…` (32 hex): the directory name of a conversation, as the reference names it. */
export function conversationDirName(id: string): string {
  return id.replace(/-/g, '').toLowerCase();
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
