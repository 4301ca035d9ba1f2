import { type AnyEvent, eventToJson } from '@x/events';
import type { EventLogLike } from '@x/store';
import type { FastifyBaseLogger } from 'fastify';
import type { EventFilterQuery, EventSearchQuery } from '../api/request-schemas.js';
import { eventPredicate } from './event-filter.js';

export interface EventPage {
  items: Record<string, unknown>[];
  next_page_id: string | null;
}

/** Reads `indices` in parallel; unreadable events (missing, empty, invalid) come back undefined (§11.3). */
async function readMany(
  log: EventLogLike,
  indices: number[],
  logger: FastifyBaseLogger,
): Promise<(AnyEvent | undefined)[]> {
  return Promise.all(
    indices.map((index) =>
      log.get(index).catch((error: unknown) => {
        logger.warn({ index, err: error }, 'unreadable event skipped');
        return undefined;
      }),
    ),
  );
}

const SCAN_BATCH = 64;

/**
 * §11.3 search. Walks the log in index order (reversed for TIMESTAMP_DESC) from `page_id`, reading
 * lazily in batches: without filters only the page's events are read (the id of the next one comes
 * from the log's index); with filters the scan stops once the page is full and one more match is found.
 */
export async function searchEvents(
  log: EventLogLike,
  query: EventSearchQuery,
  logger: FastifyBaseLogger,
): Promise<EventPage> {
  const matches = eventPredicate(query);
  const ascending = query.sort_order === 'TIMESTAMP';
  const length = log.length;
  const pageIndex = query.page_id === undefined ? -1 : log.indexOf(query.page_id);
  let next = pageIndex >= 0 ? pageIndex : ascending ? 0 : length - 1;
  const step = ascending ? 1 : -1;
  const items: Record<string, unknown>[] = [];
  while (next >= 0 && next < length) {
    if (matches === undefined && items.length === query.limit) {
      // Without a filter the first event past the page is named from the log's index, not read.
      return { items, next_page_id: log.idAt(next) };
    }
    const batch = matches === undefined ? Math.min(SCAN_BATCH, query.limit - items.length) : SCAN_BATCH;
    const indices: number[] = [];
    for (let index = next; index >= 0 && index < length && indices.length < batch; index += step) indices.push(index);
    for (const event of await readMany(log, indices, logger)) {
      if (event === undefined || (matches !== undefined && !matches(event))) continue;
      if (items.length === query.limit) return { items, next_page_id: event.id };
      items.push(eventToJson(event));
    }
    next += step * indices.length;
  }
  return { items, next_page_id: null };
}

/** §11.3 count: the log length without filters, else a scan that skips unreadable events. */
export async function countEvents(
  log: EventLogLike,
  query: EventFilterQuery,
  logger: FastifyBaseLogger,
): Promise<number> {
  const matches = eventPredicate(query);
  if (matches === undefined) return log.length;
  let count = 0;
  const length = log.length;
  for (let start = 0; start < length; start += SCAN_BATCH) {
    const indices = Array.from({ length: Math.min(SCAN_BATCH, length - start) }, (_, offset) => start + offset);
    for (const event of await readMany(log, indices, logger)) if (event !== undefined && matches(event)) count++;
  }
  return count;
}

/**
 * §11.2 agent_final_response: the message of the last finish action, or the text of the last agent
 * MessageEvent, scanning back from the end; `''` when there is none.
 */
export async function agentFinalResponse(log: EventLogLike, logger: FastifyBaseLogger): Promise<string> {
  for (let end = log.length; end > 0; end -= SCAN_BATCH) {
    const start = Math.max(0, end - SCAN_BATCH);
    const indices = Array.from({ length: end - start }, (_, offset) => end - 1 - offset);
    for (const event of await readMany(log, indices, logger)) {
      if (event === undefined) continue;
      if (event.kind === 'ActionEvent' && event.tool_name === 'finish') {
        const message = (event.action as { message?: unknown } | undefined)?.message;
        return typeof message === 'string' ? message : '';
      }
      if (event.kind === 'MessageEvent' && event.source === 'agent') {
        return event.llm_message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      }
    }
  }
  return '';
}
