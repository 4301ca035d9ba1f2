import type { AnyEvent } from '@x/events';

/** The stuck detector looks at no more than this many of the latest events (reference §10). */
export const STUCK_WINDOW_SIZE = 20;

/**
 * The events the stuck detector judges: the last 20 events of the active branch, then only those after
 * the last user MessageEvent in them. Environment nudges and other events do not reset the window.
 */
export function stuckWindow(events: readonly AnyEvent[]): readonly AnyEvent[] {
  const tail = events.slice(-STUCK_WINDOW_SIZE);
  for (let index = tail.length - 1; index >= 0; index--) {
    const event = tail[index]!;
    if (event.kind === 'MessageEvent' && event.source === 'user') return tail.slice(index + 1);
  }
  return tail;
}
