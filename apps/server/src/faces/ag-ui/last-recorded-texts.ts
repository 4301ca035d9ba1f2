import type { EventLogLike } from '@x/store';

/** Events read at a time when looking back through the log. */
const LOOK_BACK_CHUNK = 200;

/**
 * For each opening, the text of the last `extended_content` part of a user message that begins with it: what the
 * model's messages hold of that kind (the run's context, the shared state). One look back finds them all, and stops
 * at the last condensation: a condensation may have dropped them from the model's view, so what comes after it is
 * recorded again rather than taken as known. An opening with no such part since then is absent from the map.
 */
export async function lastRecordedTexts(
  log: EventLogLike,
  openings: readonly string[],
): Promise<ReadonlyMap<string, string>> {
  const found = new Map<string, string>();
  const wanted = (opening: string) => !found.has(opening);
  for (let end = log.length; end > 0 && openings.some(wanted); end -= LOOK_BACK_CHUNK) {
    const events = await log.range(Math.max(0, end - LOOK_BACK_CHUNK), end);
    for (const event of events.reverse()) {
      if (event.kind === 'Condensation') return found;
      if (event.kind !== 'MessageEvent' || event.source !== 'user') continue;
      for (const opening of openings.filter(wanted)) {
        const part = event.extended_content.findLast((content) => content.text.startsWith(opening));
        if (part !== undefined) found.set(opening, part.text);
      }
      if (!openings.some(wanted)) return found;
    }
  }
  return found;
}
