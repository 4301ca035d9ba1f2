import type { EventLogLike } from '@x/store';
import { naiveLocalTimestamp } from '../internal/query-datetime.js';

/** Where a subscription starts in the log, or why the query cannot be served. */
export type ReplayStart = { readonly fromIndex: number } | { readonly invalid: string };

/** How the reference's server (pydantic) reads a boolean query value, case-insensitively. */
const TRUE_VALUES = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_VALUES = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

/**
 * Resolves the query of `/sockets/events/{id}` to the first log index to send. Our extension
 * `from_index=N` / `after_event_id=<id>` wins over the reference's `resend_mode` (`all`, `since` with
 * `after_timestamp`; the deprecated `resend_all=true` means `all`); without any of them the socket gets
 * live events only, from the log's length now. A `resend_mode`, `resend_all` or `after_timestamp` the reference
 * would refuse is refused too, whatever else is asked: read as "no replay", a typo would silently cost the client
 * every event it asked for.
 */
export async function resolveReplayStart(query: URLSearchParams, log: EventLogLike): Promise<ReplayStart> {
  // The reference's query parameters are validated first, whichever applies, as its server validates them.
  const resendMode = query.get('resend_mode');
  if (resendMode !== null && resendMode !== 'all' && resendMode !== 'since') {
    return { invalid: `resend_mode must be all or since, got ${JSON.stringify(resendMode)}` };
  }
  const resendAllText = query.get('resend_all');
  const resendAll = resendAllText === null ? false : queryBoolean(resendAllText);
  if (resendAll === undefined) return { invalid: `resend_all must be a boolean, got ${JSON.stringify(resendAllText)}` };
  const after = query.get('after_timestamp');
  const threshold = after === null ? undefined : naiveLocalTimestamp(after);
  if (after !== null && threshold === undefined) {
    return { invalid: `after_timestamp is not an ISO datetime: ${JSON.stringify(after)}` };
  }
  const fromIndex = query.get('from_index');
  if (fromIndex !== null) {
    if (!/^\d+$/.test(fromIndex) || !Number.isSafeInteger(Number(fromIndex))) {
      return { invalid: `from_index must be a non-negative integer, got ${JSON.stringify(fromIndex)}` };
    }
    return { fromIndex: Number(fromIndex) };
  }
  const afterEventId = query.get('after_event_id');
  if (afterEventId !== null) {
    let index = log.indexOf(afterEventId);
    if (index < 0) {
      await log.refresh();
      index = log.indexOf(afterEventId);
    }
    if (index < 0) return { invalid: `after_event_id names no event of this conversation: ${afterEventId}` };
    return { fromIndex: index + 1 };
  }
  const mode = resendMode ?? (resendAll ? 'all' : null);
  if (mode === 'all') return { fromIndex: 0 };
  // `since` without a timestamp resends nothing, as the reference (which logs a warning).
  if (mode === 'since' && threshold !== undefined) return { fromIndex: await firstIndexAtOrAfter(log, threshold) };
  return { fromIndex: log.length };
}

/** A boolean query value as the reference's server reads it; undefined when it is none. */
function queryBoolean(value: string): boolean | undefined {
  const lowered = value.toLowerCase();
  if (TRUE_VALUES.has(lowered)) return true;
  if (FALSE_VALUES.has(lowered)) return false;
  return undefined;
}

/**
 * The first index whose timestamp is ≥ `threshold`, by binary search: log order is chronological (the
 * reference assumes the same), so this reads about log2(length) events instead of the whole log.
 * Timestamps compare as strings, as in the reference.
 */
async function firstIndexAtOrAfter(log: EventLogLike, threshold: string): Promise<number> {
  let low = 0;
  let high = log.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const event = await log.get(middle);
    if (event.timestamp < threshold) low = middle + 1;
    else high = middle;
  }
  return low;
}
