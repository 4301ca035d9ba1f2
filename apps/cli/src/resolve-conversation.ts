import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { expandHome, resolveDataDir } from './data-dir.js';
import { AmbiguousConversationError } from './errors/ambiguous-conversation-error.js';
import { ConversationNotFoundError } from './errors/conversation-not-found-error.js';

/** A conversation directory on disk, found from what the user typed. */
export interface ConversationSource {
  /** What the user typed. */
  input: string;
  /** The directory that holds the conversation directory (the store root to open it with). */
  parentDir: string;
  /** Name of the conversation directory (32 hex for ours; anything for a path). */
  name: string;
  /** Absolute path of the conversation directory. */
  location: string;
}

/**
 * Finds a conversation: a path to its directory (ours or one written by the Python reference), or an id
 * (hyphenated or 32 hex, or a unique prefix of at least 4 characters) under the data directory.
 */
export function resolveConversation(input: string, options: { dataDir?: string | undefined } = {}): ConversationSource {
  const asPath = resolve(expandHome(input));
  const looksLikePath = /[/\\]/.test(input) || input.startsWith('.') || input.startsWith('~');
  if (looksLikePath || isDirectory(asPath)) {
    if (isConversationDir(asPath)) return source(input, asPath);
    if (looksLikePath) throw new ConversationNotFoundError(input, [`${asPath} (no base_state.json or events/ there)`]);
  }

  const dataDir = resolveDataDir(options.dataDir);
  const name = input.replace(/-/g, '').toLowerCase();
  for (const candidate of new Set([name, input])) {
    const dir = resolve(dataDir, candidate);
    if (candidate !== '' && dirname(dir) === dataDir && isConversationDir(dir)) return source(input, dir);
  }
  if (/^[0-9a-f]{4,}$/.test(name) && isDirectory(dataDir)) {
    const matches = readdirSync(dataDir).filter(
      (entry) => entry.startsWith(name) && isConversationDir(resolve(dataDir, entry)),
    );
    if (matches.length > 1) throw new AmbiguousConversationError(input, matches);
    const [only] = matches;
    if (only !== undefined) return source(input, resolve(dataDir, only));
    const nested = findSubConversation(dataDir, name);
    if (nested.length > 1) throw new AmbiguousConversationError(input, nested);
    if (nested[0] !== undefined) return source(input, nested[0]);
  }
  throw new ConversationNotFoundError(input, [
    `${dataDir}${isDirectory(dataDir) ? '' : ' (which does not exist)'}`,
    ...(looksLikePath ? [] : [`${asPath} as a path`]),
  ]);
}

/** Sub-agents' conversations live in `<parent>/subagents/<id>/`; find them by id or unique prefix. */
function findSubConversation(dataDir: string, prefix: string): string[] {
  const found: string[] = [];
  for (const parent of readdirSync(dataDir)) {
    const dir = resolve(dataDir, parent, 'subagents');
    if (!isDirectory(dir)) continue;
    for (const entry of readdirSync(dir)) {
      if (entry.startsWith(prefix) && isConversationDir(resolve(dir, entry))) found.push(resolve(dir, entry));
    }
  }
  return found;
}

function source(input: string, location: string): ConversationSource {
  return { input, parentDir: dirname(location), name: basename(location), location };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A conversation directory has base_state.json or an events/ directory. */
export function isConversationDir(path: string): boolean {
  return isDirectory(path) && (existsSync(resolve(path, 'base_state.json')) || isDirectory(resolve(path, 'events')));
}
