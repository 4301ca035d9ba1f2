import type { AnyEvent } from '@x/events';
import { CorruptEventError } from '../errors/corrupt-event-error.js';
import type { FileStore } from '../file-store.js';
import { isStorableEventId } from './file-names.js';
import { isFileNotFound } from './is-file-not-found.js';
import { parseStoredEvent } from './parse-stored-event.js';

/** A slot claim: the complete JSON of the event that owns the index, written once with `writeIfAbsent`. */
export interface SlotClaim {
  readonly json: string;
  readonly event: AnyEvent;
}

/** Reads the claim at `path`; undefined when the slot is free. A claim that does not parse is corrupt. */
export async function readSlotClaim(store: FileStore, path: string): Promise<SlotClaim | undefined> {
  let json: string;
  try {
    json = await store.read(path);
  } catch (error) {
    if (isFileNotFound(error)) return undefined;
    throw error;
  }
  const event = parseStoredEvent({ text: json, location: store.describe(path) });
  if (!isStorableEventId(event.id)) {
    throw new CorruptEventError({ location: store.describe(path), problem: `unusable event id '${event.id}'` });
  }
  return { json, event };
}
