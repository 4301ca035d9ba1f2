import { type AnyEvent, parseEventJson } from '@x/events';
import { CorruptEventError } from '../errors/corrupt-event-error.js';

/**
 * Parses the text of a stored event file or slot claim. Anything wrong with it (empty, not JSON, not
 * a valid event, or an id other than the one its name promises) is a `CorruptEventError` naming the
 * file, so one bad file never hides the others.
 */
export function parseStoredEvent(options: { text: string; location: string; expectedId?: string }): AnyEvent {
  const { text, location, expectedId } = options;
  if (text.trim() === '') throw new CorruptEventError({ location, problem: 'the file is empty' });
  let event: AnyEvent;
  try {
    event = parseEventJson(text);
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    throw new CorruptEventError({ location, problem, cause: error });
  }
  if (expectedId !== undefined && event.id !== expectedId) {
    throw new CorruptEventError({
      location,
      problem: `its name says id '${expectedId}' but the content has id '${event.id}'`,
    });
  }
  return event;
}
