import * as crypto from 'node:crypto';
import { StoreInvariantError } from '../errors/store-invariant-error.js';
import type { ChainLink } from './chain-link.js';

// A chained claim's bytes built in place: the event's UTF-8 bytes are written once, at their final offset in the
// buffer that is stored (a slot claim, a segment record), and the chain hash, the header line and the record's
// checksum are computed over those bytes. The text path (`createChainLink` + `formatChainedClaim`) encodes the event
// three times (to hash `prefix + json`, to store the claim, to store the event file) and joins strings; this writes
// the same bytes (the claim-bytes test holds the two to that) with one encoding and no copy.

/** Node's one-shot `crypto.hash` (20.12+, 21.7+); older Nodes take `createHash`, the same digest. */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: 'hex') => string }).hash;

/** Stands for the hash while the header's length is measured: 64 characters, as a sha256 in hex. */
const HASH_PLACEHOLDER = '0'.repeat(64);

/** The header line of a chained claim (without its newline); `writer` only in segment records. */
export function chainHeaderText(link: ChainLink, writer?: string): string {
  const { index, id, prev, hash } = link;
  return writer === undefined
    ? JSON.stringify({ chain: 1, index, id, prev, hash })
    : JSON.stringify({ chain: 1, index, id, prev, hash, writer });
}

/** Where a chained claim's parts go: the header line's bytes, then `\n`, then the event's bytes. */
export interface ClaimLayout {
  readonly index: number;
  readonly id: string;
  readonly prev: string | null;
  readonly json: string;
  readonly writer: string | undefined;
  /** Bytes of the header line (its newline not counted). */
  readonly headerBytes: number;
  /** Bytes of the event's JSON (UTF-8). */
  readonly jsonBytes: number;
  /** Bytes of the whole claim: header line, newline, event. */
  readonly size: number;
}

/** Measures the claim of `json` at `index` after `prev` (its header's size does not depend on the hash). */
export function layoutClaim(
  index: number,
  id: string,
  prev: string | null,
  json: string,
  writer?: string,
): ClaimLayout {
  const headerBytes = Buffer.byteLength(chainHeaderText({ index, id, prev, hash: HASH_PLACEHOLDER }, writer), 'utf8');
  const jsonBytes = Buffer.byteLength(json, 'utf8');
  return { index, id, prev, json, writer, headerBytes, jsonBytes, size: headerBytes + 1 + jsonBytes };
}

/**
 * Writes the claim `layout` measured into `target` at `at` (`layout.size` bytes) and returns its chain link: the
 * event's bytes first, at their final place; then the hash prefix (`x-chain-v1\n{index}\n{prev}\n`, ASCII and never
 * longer than the header line) just before them, so one sha256 runs over bytes already in place; then the header
 * line over the prefix.
 */
export function writeClaim(target: Buffer, at: number, layout: ClaimLayout): ChainLink {
  const { index, id, prev, json, writer, headerBytes, jsonBytes } = layout;
  const jsonAt = at + headerBytes + 1;
  target.write(json, jsonAt, jsonBytes, 'utf8');
  const event = target.subarray(jsonAt, jsonAt + jsonBytes);
  const prefix = `x-chain-v1\n${index}\n${prev ?? ''}\n`;
  let hash: string;
  if (oneShotHash !== undefined && prefix.length <= headerBytes + 1) {
    target.write(prefix, jsonAt - prefix.length, prefix.length, 'latin1');
    hash = oneShotHash('sha256', target.subarray(jsonAt - prefix.length, jsonAt + jsonBytes), 'hex');
  } else {
    hash = crypto.createHash('sha256').update(prefix).update(event).digest('hex');
  }
  const link: ChainLink = { index, id, prev, hash };
  const header = chainHeaderText(link, writer);
  if (target.write(header, at, headerBytes, 'utf8') !== headerBytes || Buffer.byteLength(header) !== headerBytes) {
    // Cannot happen (the placeholder has the hash's length); a wrong claim must never be written.
    throw new StoreInvariantError(`the chain header of event ${index} did not keep the length it was measured with`);
  }
  target[at + headerBytes] = 0x0a;
  return link;
}
