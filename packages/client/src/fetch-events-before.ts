import { type AnyEvent, safeParseEvent } from '@x/events';
import { RemoteRequestError } from './errors/remote-request-error.js';
import { RestClient } from './internal/rest-client.js';

export interface FetchEventsBeforeOptions {
  /** Session API key (`X-Session-API-Key`). */
  apiKey?: string;
  /** How many events at most; 1 to 99 (the route's page holds 100, and one of them is `eventId` itself). Default 50. */
  limit?: number;
}

/** A page of older events. */
export interface EventsBefore {
  /** The events just before the one asked about, oldest first: the last one is at its index minus 1. */
  readonly events: readonly AnyEvent[];
  /** No event is older than the first one returned (the log's index 0 is in `events`, or `events` is empty). */
  readonly reachedStart: boolean;
}

/**
 * The events of the log just before `eventId`, for pages that hold the newest events and load older ones on
 * demand (`GET .../events/search`, newest first from `eventId`, unfiltered so in log order). An event that does
 * not parse is left out, as the event stream leaves it out.
 */
export async function fetchEventsBefore(
  serverUrl: string,
  conversationId: string,
  eventId: string,
  options: FetchEventsBeforeOptions = {},
): Promise<EventsBefore> {
  const limit = Math.min(99, Math.max(1, Math.floor(options.limit ?? 50)));
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
  const events: AnyEvent[] = [];
  for (const item of items.slice(1).reverse()) {
    const parsed = safeParseEvent(item);
    if (parsed.success) events.push(parsed.event);
  }
  return { events, reachedStart: page.next_page_id === null || page.next_page_id === undefined };
}
