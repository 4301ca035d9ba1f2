import { serializeEvent } from '@x/events';
import { decodeRecords, encodeRecords, RECORD_MAGIC } from '../../src/event-log/segment/segment-records.js';
import { userMessageEvent } from './events.js';

// Segment bytes built and taken apart by hand, for tests that damage records or write what another writer (or a
// crash) would have: one place that knows the framing, so each test says only which record and which byte.

/** Where the record that holds the message `text` starts (its magic): the record of its first occurrence. */
export function recordStartOf(bytes: Buffer, text: string): number {
  const at = bytes.indexOf(`"${text}"`);
  if (at === -1) throw new Error(`"${text}" is not in the segment`);
  return bytes.lastIndexOf(RECORD_MAGIC, at);
}

/** Where the segment's last record starts (its magic). */
export function lastRecordStart(bytes: Buffer): number {
  return bytes.lastIndexOf(RECORD_MAGIC);
}

/** Where the record after the one starting at `start` starts; -1 when it is the last. */
export function nextRecordStart(bytes: Buffer, start: number): number {
  return bytes.indexOf(RECORD_MAGIC, start + 1);
}

/** The intact record that holds the message `text`: its span `[offset, end)` and its chain link. */
export function recordOf(bytes: Buffer, text: string): ReturnType<typeof decodeRecords>['records'][number] {
  const record = decodeRecords(bytes, 0).records.find(({ json }) => Buffer.from(json).includes(`"${text}"`));
  if (record === undefined) throw new Error(`no intact record holds "${text}"`);
  return record;
}

/** A copy of `bytes` with the byte `at` bytes into the record of `text` changed: a bit flipped, or zeroed. */
export function withRecordByteChanged(bytes: Buffer, text: string, at: number, zero = false): Buffer {
  const changed = Buffer.from(bytes);
  const record = recordStartOf(changed, text);
  changed[record + at] = zero ? 0 : changed[record + at]! ^ 0x20;
  return changed;
}

/**
 * The records a writer (token `writer`) appends for user messages `texts` at indices `start…`, chained from `prev`:
 * what another writer, or one a crash cut off, would have written.
 */
export function messageRecords(
  texts: readonly string[],
  chain: { readonly start: number; readonly prev: string | null; readonly writer: string },
): Buffer {
  const events = texts.map((text) => userMessageEvent(text));
  const inputs = events.map((event) => ({ event, json: serializeEvent(event) }));
  return encodeRecords(inputs, chain.start, chain.prev, chain.writer).bytes;
}
