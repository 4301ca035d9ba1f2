/** The lists of the face that come a page at a time; each takes back only the cursors it gave. */
export type McpPagedList = 'resources/list' | 'list_conversations';

// A cursor names its list, so that one list's cursor given to another is refused rather than read as an offset into
// a list it never counted (a `list_conversations` cursor counts conversations, a `resources/list` one resources).
const PREFIXES: Record<McpPagedList, string> = {
  'resources/list': 'resources:',
  list_conversations: 'conversations:',
};

/** A positive offset in canonical decimal, at most nine digits (a safe integer): the only offsets a cursor names. */
const OFFSET = /^[1-9]\d{0,8}$/;

/** The cursor of `list`'s page that starts at `offset` (never 0: the first page is the one without a cursor). */
export function pageCursor(list: McpPagedList, offset: number): string {
  return `${PREFIXES[list]}${offset}`;
}

/** The offset a cursor of `list` names; undefined for any other string (made up, empty, another list's). */
export function pageOffset(list: McpPagedList, cursor: string): number | undefined {
  const prefix = PREFIXES[list];
  if (!cursor.startsWith(prefix)) return undefined;
  const digits = cursor.slice(prefix.length);
  return OFFSET.test(digits) ? Number(digits) : undefined;
}
