/** The reference's `DEFAULT_TRUNCATE_NOTICE` (113 characters). */
export const truncateNotice =
  '<response clipped><NOTE>Due to the max output limit, only part of the full response has been shown to you.</NOTE>';

/**
 * The reference's `maybe_truncate`: text longer than `limit` keeps its head and tail (head gets the odd
 * character) around the notice, for a total of exactly `limit` characters.
 */
export function maybeTruncate(text: string, limit: number, notice = truncateNotice): string {
  if (limit <= 0 || text.length <= limit) return text;
  if (notice.length >= limit) return notice.slice(0, limit);
  const available = limit - notice.length;
  const head = Math.ceil(available / 2);
  const tail = available - head;
  return text.slice(0, head) + notice + (tail > 0 ? text.slice(-tail) : '');
}
