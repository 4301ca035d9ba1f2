import type { AnyEvent } from '@x/events';
import { type ChainLink, parseSlotClaimText, stagedBodyPath } from '../chain/chain-link.js';
import { CorruptEventError } from '../errors/corrupt-event-error.js';
import type { FileStore } from '../file-store.js';
import { isStorableEventId } from './file-names.js';
import { isFileNotFound, isUnreadableFile } from './is-file-not-found.js';
import { parseStoredEvent } from './parse-stored-event.js';

/**
 * A slot claim, written once with `writeIfAbsent`: the complete JSON of the event that owns the index
 * (`json`, the event file's exact bytes), preceded in chained claims by a header line holding its `link`;
 * or, written by the local store (`FileStore.writeIfAbsentThenLinkMany`), the header line alone, the event's
 * bytes being in its staged body (`<dir>/.slots/event-….json`, the event file's other name).
 */
export interface SlotClaim {
  readonly json: string;
  readonly event: AnyEvent;
  /** The claim's chain link; undefined for claims written before chaining. */
  readonly link: ChainLink | undefined;
  /** The staged body's path, for a claim that is its header alone; undefined when the claim holds the event. */
  readonly staged: string | undefined;
}

/** Reads the claim at `path`; undefined when the slot is free. A claim that does not parse is corrupt. */
export async function readSlotClaim(store: FileStore, path: string): Promise<SlotClaim | undefined> {
  let text: string;
  try {
    text = await store.read(path);
  } catch (error) {
    if (isFileNotFound(error)) return undefined;
    throw error;
  }
  const parts = parseSlotClaimText(text);
  if (parts.eventJson === undefined) {
    throw new CorruptEventError({ location: store.describe(path), problem: parts.problem });
  }
  const staged = parts.link !== undefined && parts.eventJson === '' ? stagedBodyPath(path, parts.link) : undefined;
  const json = staged === undefined ? parts.eventJson : await readStagedBody(store, path, staged);
  const event = parseStoredEvent({ text: json, location: store.describe(staged ?? path) });
  if (!isStorableEventId(event.id)) {
    throw new CorruptEventError({ location: store.describe(path), problem: `unusable event id '${event.id}'` });
  }
  if (parts.link !== undefined && parts.link.id !== event.id) {
    throw new CorruptEventError({
      location: store.describe(path),
      problem: `its chain link names id '${parts.link.id}' but the event has id '${event.id}'`,
    });
  }
  return { json, event, link: parts.link, staged };
}

/**
 * The event bytes of a claim that is its header alone: its staged body, which is durable before the claim
 * exists and is never removed by this package, else the event file, its other name (a copy of the log that
 * left `.slots/`'s bodies behind). Neither there: a damaged claim (`CorruptEventError`).
 */
async function readStagedBody(store: FileStore, claimPath: string, staged: string): Promise<string> {
  const eventFile = `${claimPath.slice(0, claimPath.lastIndexOf('/.slots/'))}/${staged.slice(staged.lastIndexOf('/') + 1)}`;
  for (const path of [staged, eventFile]) {
    try {
      return await store.read(path);
    } catch (error) {
      if (!isFileNotFound(error)) throw error;
    }
  }
  throw new CorruptEventError({
    location: store.describe(claimPath),
    problem: `its event's staged body ${store.describe(staged)} is missing, and so is its event file`,
  });
}

/**
 * The claim at `path` for a reader looking for appends; undefined when the slot is free. A claim
 * that cannot be read (corrupt, not a regular file, a link) ends the log there for readers: it is
 * reported to `onUnreadable` and treated as free, so one damaged file never hides the events before
 * it. An append to that slot still fails with the typed error.
 */
export async function probeSlotClaim(
  store: FileStore,
  path: string,
  onUnreadable: (message: string) => void,
): Promise<SlotClaim | undefined> {
  try {
    return await readSlotClaim(store, path);
  } catch (error) {
    if (!isUnreadableFile(error)) throw error;
    onUnreadable((error as Error).message);
    return undefined;
  }
}
