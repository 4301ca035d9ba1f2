import { type AnyEvent, safeParseEvent } from '@x/events';
import { InvalidOptionError } from './errors/invalid-option-error.js';
import { RemoteRequestError } from './errors/remote-request-error.js';
import { RestClient } from './internal/rest-client.js';

export interface FetchEventsBeforeOptions {
  /** Session API key (`X-Session-API-Key`). */
  apiKey?: string;
  /**
   * How many events at most: an integer from 1 to 99 (the route's page holds 100, and one of them is `eventId`
   * itself), else `InvalidOptionError`. Default 50.
   */
  limit?: number;
}

/** A page of older events. */
export interface EventsBefore {
  /** The events just before the one asked about, oldest first: the last one is at its index minus 1. */
  readonly events: readonly AnyEvent[];
  /** No event is older than the first one returned (the log's index 0 is in `events`, or `events` is empty). */
  readonly reachedStart: boolean;
  /**
   * How many places of the log the page covers: `events` and the unreadable events left out, which hold their index
   * too. The oldest of them is at the index of `eventId` minus `slots`.
   */
  readonly slots: number;
  /**
   * Id of the oldest event the page covers, readable or not: the `eventId` that asks for the page before this one
   * (asked from `events[0]`, it would cover again the unreadable events older than it). Undefined when none.
   */
  readonly oldestEventId: string | undefined;
  /**
   * How many of the places the page covers hold an event that could not be read (it does not parse as an event of
   * this client's, or it is no event at all): left out of `events`, they are counted here, so that a page with
   * fewer events than `slots` is known to be partial. `events.length + skipped === slots`.
   */
  readonly skipped: number;
  /** The ids of the unreadable events left out that have one, oldest first. */
  readonly skippedEventIds: readonly string[];
}

/** The most events one page before an event can hold: the route's maximum page (100) less the event itself. */
const MAX_LIMIT = 99;

/**
 * The events of the log just before `eventId`, for pages that hold the newest events and load older ones on
 * demand (`GET .../events/search`, newest first from `eventId`, unfiltered so in log order). An event that does
 * not parse is left out, as the event stream leaves it out, and counted in `skipped` (its id in `skippedEventIds`).
 */
export async function fetchEventsBefore(
  serverUrl: string,
  conversationId: string,
  eventId: string,
  options: FetchEventsBeforeOptions = {},
): Promise<EventsBefore> {
  const limit = options.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new InvalidOptionError({
      call: 'fetchEventsBefore',
      option: 'limit',
      value: limit,
      expected: `an integer from 1 to ${MAX_LIMIT}`,
    });
  }
  const rest = new RestClient(serverUrl, options.apiKey);
  const path = `/api/conversations/${encodeURIComponent(conversationId)}/events/search`;
  const page = await rest.request<{ items?: unknown; next_page_id?: unknown }>('GET', path, {
    conversationId,
    query: { sort_order: 'TIMESTAMP_DESC', page_id: eventId, limit: limit + 1 },
  });
  const items = Array.isArray(page?.items) ? page.items : [];
  const first = items[0] as { id?: unknown } | undefined;
  if (first?.id !== eventId) {
    throw new RemoteRequestError({
      method: 'GET',
      url: `${rest.serverUrl}${path}`,
      status: 200,
      detail: `the page of events before ${eventId} does not start at that event (is it in conversation ${conversationId}?)`,
    });
  }
  const reachedStart = page.next_page_id === null || page.next_page_id === undefined;
  const newestFirst = items.slice(1);
  // The page ends at its oldest event with an id, the next page's anchor: one without (never a readable event) is
  // covered by the next page, unless there is none.
  let slots = reachedStart ? newestFirst.length : 0;
  let oldestEventId: string | undefined;
  newestFirst.forEach((item, position) => {
    const id = (item as { id?: unknown } | null)?.id;
    if (typeof id !== 'string') return;
    oldestEventId = id;
    if (!reachedStart) slots = position + 1;
  });
  const events: AnyEvent[] = [];
  const skippedEventIds: string[] = [];
  let skipped = 0;
  // Only what the page covers: an item past it is the next page's to read (or to skip).
  for (const item of newestFirst.slice(0, slots).reverse()) {
    const parsed = safeParseEvent(item);
    if (parsed.success) {
      events.push(parsed.event);
      continue;
    }
    skipped += 1;
    const id = (item as { id?: unknown } | null)?.id;
    if (typeof id === 'string') skippedEventIds.push(id);
  }
  return { events, reachedStart, slots, oldestEventId, skipped, skippedEventIds };
}
