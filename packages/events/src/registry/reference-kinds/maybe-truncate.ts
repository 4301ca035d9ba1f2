import { pythonHead, pythonLength, pythonLineCount, pythonPosixJoin, pythonTail } from './python-text.js';
import { sha256Hex } from './sha256-hex.js';

/** The reference's `DEFAULT_TRUNCATE_NOTICE` (113 characters). */
export const truncateNotice =
  '<response clipped><NOTE>Due to the max output limit, only part of the full response has been shown to you.</NOTE>';

/**
 * The reference's `maybe_truncate`: text longer than `limit` keeps its head and tail (head gets the odd
 * character) around the notice, for a total of exactly `limit` characters. Characters are Python's (code points).
 */
export function maybeTruncate(text: string, limit: number, notice = truncateNotice): string {
  if (limit <= 0 || pythonLength(text) <= limit) return text;
  const noticeLength = pythonLength(notice);
  if (noticeLength >= limit) return pythonHead(notice, limit);
  const available = limit - noticeLength;
  const head = Math.ceil(available / 2);
  return pythonHead(text, head) + notice + pythonTail(text, available - head);
}

export interface PersistedTruncateOptions {
  limit: number;
  /** The observation's `full_output_save_dir`; without one the plain notice is used. */
  saveDir?: string | null | undefined;
  /** The saved file's name prefix (`terminal`, `browser`). */
  toolPrefix: string;
}

/** Where the reference saves the full text `content` it truncated: `<saveDir>/<prefix>_output_<sha256[:8]>.txt`. */
export function savedOutputPath(content: string, saveDir: string, toolPrefix: string): string {
  return pythonPosixJoin(saveDir, `${toolPrefix}_output_${sha256Hex(content).slice(0, 8)}.txt`);
}

/**
 * The reference's `maybe_truncate` with a `save_dir`: the full text is saved there (by the reference, when it rendered
 * the observation) and the notice names that file and the line the cut starts around. The text is the same whether
 * or not the file exists here, since the model already saw it. POSIX paths only (see the README).
 */
export function maybeTruncatePersisted(text: string, options: PersistedTruncateOptions): string {
  const { limit, saveDir, toolPrefix } = options;
  if (!saveDir) return maybeTruncate(text, limit);
  if (limit <= 0 || pythonLength(text) <= limit) return text;
  if (truncateNotice.length >= limit) return truncateNotice.slice(0, limit);
  const available = limit - truncateNotice.length;
  const proposedHead = Math.ceil(available / 2);
  const notice =
    '<response clipped><NOTE>Due to the max output limit, only part of the full response has been shown to you. ' +
    `The complete output has been saved to ${savedOutputPath(text, saveDir, toolPrefix)} - you can use other tools ` +
    `to view the full content (truncated part starts around line ${pythonLineCount(pythonHead(text, proposedHead)) + 1}).</NOTE>`;
  const noticeLength = pythonLength(notice);
  if (noticeLength >= limit) return pythonHead(notice, limit);
  const remaining = limit - noticeLength;
  const head = Math.min(proposedHead, remaining);
  return pythonHead(text, head) + notice + pythonTail(text, remaining - head);
}
