import { SegmentInvariantError } from '../../errors/segment-invariant-error.js';
import type { SegmentRecord } from './segment-records.js';

// An append that finds other writers' records landed with its own (see `SegmentLog.append`): its batch's bytes are
// found by themselves, as the bytes are unique by the writer token in each record's header, and the records the rule
// accepted within them are the batch's records that won their indices.

/**
 * Where the batch `bytes` are in the segment: `tail` is the segment from byte `before` (where this instance last
 * looked) to the size its append returned. Throws `SegmentInvariantError` naming the segment (`location`) when they
 * are not there (a store that does not keep what it is given): other writers' records in their place would read as
 * this append's.
 */
export function batchOffset(tail: Uint8Array, before: number, bytes: Uint8Array, location: string): number {
  const found = Buffer.from(tail.buffer, tail.byteOffset, tail.byteLength).indexOf(bytes);
  if (found === -1) {
    throw new SegmentInvariantError({
      location,
      problem: `a batch of ${bytes.length} bytes was appended but is not in the segment between bytes ${before} and ${before + tail.length}`,
    });
  }
  return before + found;
}

/**
 * The records among `accepted` that are the batch's, which `batchOffset` found at `at` (`length` bytes), at most
 * `count` of them: the batch's records that won their indices, a prefix of it (each chains to the one before it).
 */
export function batchWinners(
  accepted: readonly SegmentRecord[],
  batch: { readonly at: number; readonly length: number; readonly count: number },
): SegmentRecord[] {
  const { at, length, count } = batch;
  return accepted.filter((record) => record.offset >= at && record.offset < at + length).slice(0, count);
}
