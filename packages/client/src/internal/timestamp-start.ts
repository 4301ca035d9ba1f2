import type { RestClient } from './rest-client.js';

/** Where a stream that may resume by timestamp starts. */
export interface TimestampStart {
  /** Log index of the first event wanted. */
  readonly index: number;
  /**
   * The event just before it, which the first connection resumes after (`resend_mode=since`, which replays
   * it too: it is dropped by id). Undefined when the start is the log's beginning, or when it could not be read.
   */
  readonly baseline: { readonly id: string; readonly timestamp: string } | undefined;
}

/** Lengths read before giving up on a log that never stands still; the last reading is taken as it is. */
const MAX_READINGS = 3;

type SearchPage = { items: Array<{ id?: unknown; timestamp?: unknown }>; next_page_id?: string | null };

/**
 * Reads where a stream starts, as a log index and the event before it, in one consistent view: the log's length
 * is read before and after the event, and read again until the two agree (logs only grow), so that an event
 * appended meanwhile cannot be both "before the start" and delivered, or shift every index. `fromEnd`: counts back
 * from the end (0: live only); else `fromIndex` is the start.
 */
export async function findTimestampStart(
  rest: RestClient,
  conversationId: string,
  start: { fromEnd: number } | { fromIndex: number },
): Promise<TimestampStart> {
  if ('fromIndex' in start && start.fromIndex === 0) return { index: 0, baseline: undefined };
  const base = `/api/conversations/${encodeURIComponent(conversationId)}/events`;
  const count = (): Promise<number> => rest.request<number>('GET', `${base}/count`, { conversationId });
  let length = await count();
  for (let reading = 1; ; reading += 1) {
    const index = 'fromEnd' in start ? Math.max(0, length + start.fromEnd) : Math.min(start.fromIndex, length);
    const baseline =
      index === 0 ? undefined : await eventFromEnd(rest, `${base}/search`, conversationId, length - index + 1);
    const after = await count();
    if (after === length || reading === MAX_READINGS) return { index, baseline };
    length = after;
  }
}

/** The event `depth` places before the end of the log (1: the newest), read newest first page by page. */
async function eventFromEnd(
  rest: RestClient,
  path: string,
  conversationId: string,
  depth: number,
): Promise<TimestampStart['baseline']> {
  let skip = depth - 1;
  let pageId: string | undefined;
  for (;;) {
    const page = await rest.request<SearchPage>('GET', path, {
      conversationId,
      query: { sort_order: 'TIMESTAMP_DESC', limit: Math.min(100, skip + 1), page_id: pageId },
    });
    const event = page.items[skip];
    if (event !== undefined) {
      return typeof event.id === 'string' && typeof event.timestamp === 'string'
        ? { id: event.id, timestamp: event.timestamp }
        : undefined;
    }
    skip -= page.items.length;
    pageId = page.next_page_id ?? undefined;
    if (pageId === undefined || page.items.length === 0) return undefined;
  }
}
