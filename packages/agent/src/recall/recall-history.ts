import { type AnyEvent, isLLMConvertibleEvent } from '@x/events';
import { eventSummaryText, truncateMiddle } from '../condenser/internal/event-summary-text.js';
import { InvalidRecallError } from './invalid-recall-error.js';
import type { RecallLimits } from './recall-limits.js';
import type { RecallParameters } from './recall-parameters.js';
import { recallRequestFrom } from './recall-request.js';

/** What a recall found: the text the model reads, and what it holds. */
export interface RecallResult {
  text: string;
  /** Ids of the events whose text is in `text` (in full or cut), oldest first. */
  eventIds: string[];
  /** Whether anything was left out or cut (more matches, the size caps). */
  truncated: boolean;
}

interface Entry {
  index: number;
  event: AnyEvent;
}

/**
 * Answers a recall from the events of the active branch (root first): by id, by inclusive index range or by text
 * (every word, case-insensitive; by default only among the events a Condensation forgot). The result holds at most
 * `limits.maxResults` events and `limits.maxTotalChars` characters of them, each cut to `limits.maxEventChars`;
 * every cut is stated. Throws `InvalidRecallError` for an ambiguous request, an unknown id or a range past the end.
 */
export function recallFromHistory(
  events: readonly AnyEvent[],
  args: RecallParameters,
  limits: RecallLimits,
): RecallResult {
  const request = recallRequestFrom(args);
  const maxResults = Math.min(args.max_results ?? limits.maxResults, limits.maxResults);
  const forgotten = forgottenIds(events);
  const notes: string[] = [];
  let entries: Entry[];
  let heading: string;

  if (request.mode === 'ids') {
    const indexOf = new Map(events.map((event, index) => [event.id, index]));
    const unknown = request.ids.filter((id) => !indexOf.has(id));
    if (unknown.length > 0) {
      throw new InvalidRecallError(
        `recall: no event with id ${unknown.map((id) => `'${id}'`).join(', ')} in this conversation (${events.length} events).`,
      );
    }
    entries = request.ids.map((id) => ({ index: indexOf.get(id)!, event: events[indexOf.get(id)!]! }));
    entries.sort((a, b) => a.index - b.index);
    heading = `Events by id (${entries.length})`;
  } else if (request.mode === 'range') {
    if (request.start >= events.length) {
      throw new InvalidRecallError(
        `recall start_index ${request.start} is past the end of the log: it has ${events.length} events (indices 0-${events.length - 1}).`,
      );
    }
    const last = Math.min(request.end ?? request.start + maxResults - 1, events.length - 1);
    entries = [];
    for (let index = request.start; index <= last; index++) {
      const event = events[index]!;
      if (isLLMConvertibleEvent(event)) entries.push({ index, event });
    }
    heading = `Events ${request.start}-${last} (${entries.length} the model can read; state updates and condensations skipped)`;
    if (request.end !== undefined && request.end > last) {
      notes.push(`end_index ${request.end} is past the end of the log; stopped at ${last}.`);
    }
  } else {
    entries = [];
    events.forEach((event, index) => {
      if (!isLLMConvertibleEvent(event)) return;
      if (!request.includeVisible && !forgotten.has(event.id)) return;
      const text = eventSummaryText(event).toLowerCase();
      if (request.words.every((word) => text.includes(word))) entries.push({ index, event });
    });
    const scope = request.includeVisible ? 'all events' : 'the events condensation forgot';
    heading = `Search of ${scope} for ${JSON.stringify(args.query)}: ${entries.length} match${entries.length === 1 ? '' : 'es'}`;
    if (!request.includeVisible && forgotten.size === 0) {
      notes.push('Nothing has been forgotten yet (no condensation); use include_visible to search everything.');
    }
  }

  if (entries.length > maxResults) {
    const rest = entries.slice(maxResults);
    notes.push(
      `[truncated: ${rest.length} more event${rest.length === 1 ? '' : 's'} not shown (max_results ${maxResults}); ` +
        `next: ${describe(rest.slice(0, 5))}${rest.length > 5 ? ', ...' : ''}]`,
    );
    entries = entries.slice(0, maxResults);
  }
  return render(heading, entries, forgotten, notes, limits);
}

function render(
  heading: string,
  entries: readonly Entry[],
  forgotten: ReadonlySet<string>,
  notes: string[],
  limits: RecallLimits,
): RecallResult {
  const blocks: string[] = [];
  const eventIds: string[] = [];
  let used = 0;
  let cut = false;
  const skipped: Entry[] = [];
  for (const entry of entries) {
    const full = textOf(entry.event);
    const body = truncateMiddle(full, limits.maxEventChars);
    if (body.length < full.length) cut = true;
    const status = forgotten.has(entry.event.id) ? 'forgotten' : 'in context';
    const block = `<EVENT index=${entry.index} id=${entry.event.id} ${status}>\n${body}\n</EVENT>`;
    if (used + block.length > limits.maxTotalChars && blocks.length > 0) {
      skipped.push(entry);
      continue;
    }
    blocks.push(block);
    eventIds.push(entry.event.id);
    used += block.length;
  }
  if (cut) notes.push(`[truncated: events longer than ${limits.maxEventChars} characters lost their middle]`);
  if (skipped.length > 0) {
    notes.push(
      `[truncated: ${skipped.length} event${skipped.length === 1 ? '' : 's'} left out (over the ${limits.maxTotalChars}-character cap): ` +
        `${describe(skipped)}; recall them by id]`,
    );
  }
  const truncated = notes.some((note) => note.startsWith('[truncated'));
  const text = [heading, ...blocks, ...notes].join('\n');
  return { text, eventIds, truncated };
}

function describe(entries: readonly Entry[]): string {
  return entries.map((entry) => `index ${entry.index} id ${entry.event.id}`).join(', ');
}

/** An LLM-visible event as the condenser renders it; anything else (state updates, condensations) as its JSON. */
function textOf(event: AnyEvent): string {
  return isLLMConvertibleEvent(event) ? eventSummaryText(event) : `${event.kind}\n${JSON.stringify(event)}`;
}

/** Every id a Condensation on the branch took out of the model's view. */
function forgottenIds(events: readonly AnyEvent[]): Set<string> {
  const ids = new Set<string>();
  for (const event of events) {
    if (event.kind === 'Condensation') for (const id of event.forgotten_event_ids) ids.add(id);
  }
  return ids;
}
