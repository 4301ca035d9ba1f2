import { type AnyEvent, eventParserVersion, rawEventText, reviveValidatedEvent, serializeEvent } from '@x/events';
import { StoreInvariantError } from '../errors/store-invariant-error.js';
import { nodeCrc32 } from '../internal/crc32.js';
import { eventIdOfPath, pathHasEventId } from './file-names.js';
import { parseStoredEvent } from './parse-stored-event.js';
import { SharedStrings, shareEventStrings } from './share-strings.js';

/**
 * The packed read cache's file format (see `packs.ts`): line 1 a JSON header, then the body, one JSON
 * array of the chunk's events.
 *
 * ```
 * {"format":"x-event-pack","v":1,"start":S,"count":N,"parser":"@x/events@…","names":[…N file names…],"crc32":C}
 * [event S, event S+1, …]
 * ```
 *
 * `crc32` is over the body's UTF-8 bytes. A body element is the event's JSON object, exactly as
 * `serializeEvent` wrote it, when that text is canonical (`JSON.stringify` of the parsed event gives it
 * back, true of every event our writers create): it is revived without validation. Otherwise (a file
 * the reference wrote with `1.0`, an event of an unknown kind, a field the schema fills in) the element
 * is that text as a JSON string, parsed and validated on reading like the file itself, so a pack-read
 * event always deep-equals the file-read one and serializes to the same bytes.
 */
export const PACK_FORMAT = 'x-event-pack';
export const PACK_VERSION = 1;

/** `zlib.crc32` exists from Node 20.15 / 22.2; without it there are no packs. */
const crc32 = nodeCrc32;

/** True when this Node can checksum packs (`zlib.crc32`). */
export function packsAvailable(): boolean {
  return crc32 !== undefined;
}

interface PackHeader {
  format: string;
  v: number;
  start: number;
  count: number;
  parser: string;
  names: string[];
  crc32: number;
}

/**
 * The bytes of the pack of `events` (validated, at indices `start…`) whose files are `names`. `encoded[k]`, when
 * given, must be the UTF-8 bytes of `packElement(events[k])` (see `encodedPackElement`): the appender's own event
 * bytes, taken as they are instead of serializing the event again. The body is checksummed part by part and
 * copied once, after the header.
 */
export function encodePack(options: {
  start: number;
  names: readonly string[];
  events: readonly AnyEvent[];
  encoded?: readonly (Uint8Array | undefined)[];
}): Buffer {
  const { start, names, events, encoded } = options;
  // Cannot happen: without `zlib.crc32` packs are off (`packsAvailable`), so none is ever encoded.
  if (crc32 === undefined)
    throw new StoreInvariantError(`the pack of events ${start}… was encoded on a Node without zlib.crc32`);
  const count = events.length;
  // The body `[e0,e1,…]` as pieces: the given bytes as they are; elements without bytes serialized and encoded in
  // runs (one Buffer.from per run, not per element).
  const pieces: Uint8Array[] = [OPEN];
  const add = (piece: Uint8Array) => {
    if (pieces.length > 1) pieces.push(COMMA);
    pieces.push(piece);
  };
  let textRun: string[] = [];
  const flush = () => {
    if (textRun.length > 0) add(Buffer.from(textRun.join(','), 'utf8'));
    textRun = [];
  };
  for (let k = 0; k < count; k++) {
    const bytes = encoded?.[k];
    if (bytes === undefined) {
      textRun.push(packElement(events[k]!));
      continue;
    }
    flush();
    add(bytes);
  }
  flush();
  pieces.push(CLOSE);
  let crc = 0;
  let size = 0;
  for (const piece of pieces) {
    crc = crc32(piece, crc);
    size += piece.length;
  }
  const header: PackHeader = {
    format: PACK_FORMAT,
    v: PACK_VERSION,
    start,
    count,
    parser: eventParserVersion(),
    names: [...names],
    crc32: crc,
  };
  const headerText = `${JSON.stringify(header)}\n`;
  const pack = Buffer.allocUnsafeSlow(Buffer.byteLength(headerText, 'utf8') + size);
  let at = pack.write(headerText, 0, 'utf8');
  for (const piece of pieces) {
    pack.set(piece, at);
    at += piece.length;
  }
  return pack;
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/**
 * Whether the pack element of `event` is exactly the text its append serialized (`serializeEvent`), so its
 * encoded bytes may be packed as they are: an event with no stored text of its own (one created here, not
 * parsed) serializes as `JSON.stringify` of itself, which is its canonical element. Events parsed from a text
 * (whose element may be that text as a JSON string) and opaque events are serialized again at pack time.
 */
export function encodedPackElement(event: AnyEvent): boolean {
  return event.kind !== 'OpaqueEvent' && rawEventText(event) === undefined;
}

/** The event's canonical JSON, or its stored text as a JSON string when that text is not canonical. */
function packElement(event: AnyEvent): string {
  if (event.kind === 'OpaqueEvent') return JSON.stringify(serializeEvent(event));
  // serializeEvent gives the text the event was parsed from (its lone surrogates escaped, as its event file holds
  // it), or else exactly this (one stringify, not two).
  const canonical = JSON.stringify(event);
  const raw = rawEventText(event);
  if (raw === undefined) return canonical;
  const text = serializeEvent(event);
  return text === canonical ? canonical : JSON.stringify(text);
}

/** What a pack must agree with to be used: its place in the log and the log's own file names there. */
export interface PackExpectation {
  readonly start: number;
  /** The most events it may hold: the chunk's, or fewer in the log's last, incomplete chunk. */
  readonly maxCount: number;
  /** The log's event file name (no directory) at `index`. */
  nameAt(index: number): string;
  /** For messages about a damaged element. */
  readonly location: string;
}

export type DecodedPack = { readonly events: AnyEvent[] } | { readonly problem: string };

/**
 * The events of a pack read as `data`, or why it cannot be used: not a pack, another format version or
 * parser, another place or other file names than the log's, a checksum mismatch (corrupt or truncated),
 * or an element that does not parse. Never throws.
 */
export function decodePack(data: Uint8Array | string, expected: PackExpectation): DecodedPack {
  const parts = splitPack(data);
  if ('problem' in parts) return parts;
  const { header, body } = parts;
  const count = header.names.length;
  if (header.start !== expected.start) return { problem: 'another chunk' };
  if (count === 0 || count > expected.maxCount) return { problem: `it holds ${count} events, more than the log has` };
  const { names } = header;
  for (let k = 0; k < count; k++) {
    if (names[k] !== expected.nameAt(expected.start + k)) {
      return { problem: `its names disagree with the log at index ${expected.start + k}` };
    }
  }
  let values: unknown;
  try {
    values = JSON.parse(body.toString('utf8'));
  } catch {
    return { problem: 'its body is not JSON' };
  }
  if (!Array.isArray(values) || values.length !== count) {
    return { problem: 'its body does not hold one event per name' };
  }
  // Revived in place: `values` becomes the events (no second array of 1024 per pack).
  const events = values as AnyEvent[];
  const shared = new SharedStrings();
  for (let k = 0; k < count; k++) {
    const event = decodeElement(values[k], names[k]!, expected.location, shared);
    if (typeof event === 'string') return { problem: `element ${k}: ${event}` };
    events[k] = event;
  }
  return { events };
}

/** A pack's header and body when it is one this version reads and its checksum matches, else undefined. */
export function packHeaderOf(data: Uint8Array): { start: number; names: string[]; body: Buffer } | undefined {
  const parts = splitPack(data);
  return 'problem' in parts ? undefined : { start: parts.header.start, names: parts.header.names, body: parts.body };
}

/** Header and body of a pack of this format, version and parser whose checksum matches, or the problem. */
function splitPack(data: Uint8Array | string): { header: PackHeader; body: Buffer } | { problem: string } {
  if (crc32 === undefined) return { problem: 'zlib.crc32 is not available' };
  const bytes =
    typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const newline = bytes.indexOf(10);
  if (newline === -1) return { problem: 'no header line (truncated?)' };
  let header: Partial<PackHeader>;
  try {
    header = JSON.parse(bytes.toString('utf8', 0, newline)) as Partial<PackHeader>;
  } catch {
    return { problem: 'its header is not JSON' };
  }
  if (header === null || typeof header !== 'object') return { problem: 'its header is not an object' };
  if (header.format !== PACK_FORMAT || header.v !== PACK_VERSION) return { problem: 'another format or version' };
  if (header.parser !== eventParserVersion())
    return { problem: `written by another parser (${String(header.parser)})` };
  const { start, count, names } = header;
  if (
    !Number.isSafeInteger(start) ||
    !Array.isArray(names) ||
    names.length !== count ||
    typeof header.crc32 !== 'number'
  ) {
    return { problem: 'its header is incomplete' };
  }
  if (!names.every((name) => typeof name === 'string')) return { problem: 'its header is incomplete' };
  const body = bytes.subarray(newline + 1);
  if (crc32(body) !== header.crc32) return { problem: 'its checksum does not match (corrupt or truncated)' };
  return { header: header as PackHeader, body };
}

/** One body element, of the event file `name`, as an event, or a problem. */
function decodeElement(value: unknown, name: string, location: string, shared: SharedStrings): AnyEvent | string {
  if (typeof value === 'string') {
    try {
      return parseStoredEvent({ text: value, location: `${location} (${name})`, expectedId: eventIdOfPath(name) });
    } catch (error) {
      return (error as Error).message;
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not an event';
  const object = value as Record<string, unknown>;
  // Compared in place (no id sliced out of each name): the header's names are already the log's.
  if (typeof object.id !== 'string' || !pathHasEventId(name, object.id)) {
    return `id '${String(object.id)}' where the name says '${eventIdOfPath(name)}'`;
  }
  shareEventStrings(object, shared);
  return reviveValidatedEvent(object);
}
