import type { McpListPosition } from './mcp-host.js';

/** The lists of the face that come a page at a time; each takes back only the cursors it gave. */
export type McpPagedList = 'resources/list' | 'list_conversations';

// A cursor names its list, so that one list's cursor given to another is refused rather than read as a place in a list
// whose pages it never ended (a `list_conversations` page holds `limit` conversations, a `resources/list` one 50).
const PREFIXES: Record<McpPagedList, string> = {
  'resources/list': 'resources:',
  list_conversations: 'conversations:',
};

/**
 * The place a cursor names: the sort time of the last conversation of the page it follows (ISO 8601 as the host
 * holds it, offset or not; empty for a conversation recorded without one) and its id. A place, not an offset: a
 * conversation deleted or created between pages neither skips nor repeats another.
 */
const POSITION =
  /^((?:\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})?)?)~([0-9A-Za-z_-]{1,64})$/;

/** The cursor of `list`'s page that follows the one ending at `position` (the first page is the one without). */
export function pageCursor(list: McpPagedList, position: McpListPosition): string {
  return `${PREFIXES[list]}${position.at}~${position.id}`;
}

/** The place a cursor of `list` names; undefined for any other string (made up, empty, another list's). */
export function pagePosition(list: McpPagedList, cursor: string): McpListPosition | undefined {
  const prefix = PREFIXES[list];
  if (!cursor.startsWith(prefix)) return undefined;
  const match = POSITION.exec(cursor.slice(prefix.length));
  if (match === null) return undefined;
  const [, at = '', id = ''] = match;
  // A time of the right shape that is no time (month 13) would fail the index's query, not be refused.
  if (at !== '' && Number.isNaN(Date.parse(at))) return undefined;
  return { at, id };
}
