import { pythonHead, pythonLength, pythonTail } from '../registry/reference-kinds/python-text.js';

/** Longest tool-result text sent to the LLM (the reference's `DEFAULT_TEXT_CONTENT_LIMIT`). */
export const TOOL_TEXT_LIMIT = 50_000;

/** Inserted where the middle of an over-long tool result was cut (reference wording). */
export const TRUNCATE_NOTICE =
  '<response clipped><NOTE>Due to the max output limit, only part of the full response has been shown to you.</NOTE>';

/**
 * Middle-truncates tool-result text longer than `limit` (reference `maybe_truncate`): the head and
 * tail are kept around the notice so the result is exactly `limit` long; the head gets the extra
 * character when the remainder is odd. Lengths are Python's: code points, so an emoji counts once.
 */
export function truncateToolText(text: string, limit: number = TOOL_TEXT_LIMIT): string {
  if (pythonLength(text) <= limit) return text;
  if (TRUNCATE_NOTICE.length >= limit) return TRUNCATE_NOTICE.slice(0, limit);
  const available = limit - TRUNCATE_NOTICE.length;
  const head = Math.ceil(available / 2);
  return pythonHead(text, head) + TRUNCATE_NOTICE + pythonTail(text, available - head);
}
