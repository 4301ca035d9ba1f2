import * as crypto from 'node:crypto';
import { eventFileName } from '../event-log/file-names.js';

/**
 * One link of an event log's hash chain: kept in the event's slot claim (never in the event file, which
 * stays the reference's format), so it is written by the same atomic create-if-absent that commits the event.
 */
export interface ChainLink {
  /** The index the event was appended at. */
  readonly index: number;
  /** The event's id. */
  readonly id: string;
  /** The previous event's link hash, or null where the chain starts (index 0, or after unchained events). */
  readonly prev: string | null;
  /** sha256 (hex) over the index, `prev` and the exact bytes of the event file. */
  readonly hash: string;
}

/** Marks a slot claim that carries a chain link: `{"chain":1,…}\n` followed by the event's exact bytes. */
const HEADER_START = '{"chain":1,';

/**
 * Node's one-shot `crypto.hash` (20.12+, 21.7+): no Hash object per call, a third of this function's time on every
 * append. Read from the namespace, as Node 20.0-20.11 has none; those take `createHash`, the same digest.
 */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

/** The link hash of an event: sha256 over `x-chain-v1\n{index}\n{prev}\n` and the event file's UTF-8 bytes. */
export function computeChainHash(index: number, prev: string | null, eventJson: string | Uint8Array): string {
  const prefix = `x-chain-v1\n${index}\n${prev ?? ''}\n`;
  // The prefix is ASCII, so hashing the joined text as UTF-8 hashes the same bytes as the two updates.
  if (typeof eventJson === 'string' && oneShotHash !== undefined)
    return oneShotHash('sha256', prefix + eventJson, 'hex');
  const hash = crypto.createHash('sha256').update(prefix);
  // Bytes as stored are hashed as they are: no decoding and re-encoding on the way.
  return (typeof eventJson === 'string' ? hash.update(eventJson, 'utf8') : hash.update(eventJson)).digest('hex');
}

/** Builds the link of the event stored as `eventJson` at `index` after `prev`. */
export function createChainLink(index: number, id: string, prev: string | null, eventJson: string): ChainLink {
  return { index, id, prev, hash: computeChainHash(index, prev, eventJson) };
}

/** The text of a chained slot claim: one header line holding the link, then the event file's exact bytes. */
export function formatChainedClaim(link: ChainLink, eventJson: string): string {
  const header = JSON.stringify({ chain: 1, index: link.index, id: link.id, prev: link.prev, hash: link.hash });
  return `${header}\n${eventJson}`;
}

/**
 * The text of a chained slot claim whose event bytes are stored once, in its staged body (see
 * `stagedBodyPath`): the header line alone. The local store writes these (`FileStore.writeIfAbsentThenLinkMany`):
 * the body is a file of its own, durable before the claim exists, and the event file is a hard link of it.
 */
export function formatStagedClaim(link: ChainLink): string {
  return formatChainedClaim(link, '');
}

/**
 * Where a staged claim's event bytes are: `<dir>/.slots/` and the event file's name (index and id from the
 * claim's link), next to the claim at `<dir>/.slots/{index}.json`. Neither the reference nor the claim probe
 * reads it (it is not named like a claim, and the reference ignores `.slots/`).
 */
export function stagedBodyPath(claimPath: string, link: ChainLink): string {
  // The event file's own name, so the two are one file under two names.
  return `${claimPath.slice(0, claimPath.lastIndexOf('/'))}/${eventFileName(link.index, link.id)}`;
}

/**
 * Splits a slot claim into its link (if it has one) and the event file's bytes. Claims written before
 * chaining (or without it) are the bare event JSON and have no link. A header that is present but unusable
 * gives `{ problem }` so the caller can report the claim as corrupt.
 */
export function parseSlotClaimText(
  text: string,
): { link: ChainLink | undefined; eventJson: string } | { problem: string; eventJson?: undefined } {
  if (!text.startsWith(HEADER_START)) return { link: undefined, eventJson: text };
  const newline = text.indexOf('\n');
  if (newline === -1) return { problem: 'the chain header is not followed by an event' };
  let header: unknown;
  try {
    header = JSON.parse(text.slice(0, newline));
  } catch {
    return { problem: 'the chain header is not JSON' };
  }
  const link = toChainLink(header);
  if (link === undefined) return { problem: 'the chain header lacks index, id, prev or hash' };
  return { link, eventJson: text.slice(newline + 1) };
}

const HEADER_BYTES = Buffer.from(HEADER_START, 'utf8');

/** `parseSlotClaimText` on the claim's bytes: only the header line is decoded; the event's bytes stay bytes. */
export function parseSlotClaimBytes(
  bytes: Uint8Array,
): { link: ChainLink | undefined; eventBytes: Uint8Array } | { problem: string; eventBytes?: undefined } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length < HEADER_BYTES.length || !buffer.subarray(0, HEADER_BYTES.length).equals(HEADER_BYTES)) {
    return { link: undefined, eventBytes: buffer };
  }
  const newline = buffer.indexOf(0x0a);
  if (newline === -1) return { problem: 'the chain header is not followed by an event' };
  let header: unknown;
  try {
    header = JSON.parse(buffer.toString('utf8', 0, newline));
  } catch {
    return { problem: 'the chain header is not JSON' };
  }
  const link = toChainLink(header);
  if (link === undefined) return { problem: 'the chain header lacks index, id, prev or hash' };
  return { link, eventBytes: buffer.subarray(newline + 1) };
}

/**
 * Where the chain header line that ends just before `end` (its newline at `end - 1`) starts in `bytes`, when that
 * line reads as a link; undefined otherwise. A segment record's payload starts with this line, so it places a record
 * whose framing bytes (its magic) are damaged: only the header line ending at the event's bytes is that event's.
 */
export function chainHeaderStartBefore(bytes: Uint8Array, end: number): number | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (end < 1 || end > buffer.length || buffer[end - 1] !== 0x0a) return undefined;
  const start = buffer.lastIndexOf(HEADER_BYTES, end - 1);
  if (start === -1) return undefined;
  const parts = parseSlotClaimBytes(buffer.subarray(start, end));
  if (parts.eventBytes === undefined) return undefined;
  return parts.link !== undefined && parts.eventBytes.length === 0 ? start : undefined;
}

function toChainLink(value: unknown): ChainLink | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { index, id, prev, hash } = value as Record<string, unknown>;
  if (!Number.isSafeInteger(index) || (index as number) < 0) return undefined;
  if (typeof id !== 'string' || typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) return undefined;
  if (prev !== null && (typeof prev !== 'string' || !/^[0-9a-f]{64}$/.test(prev))) return undefined;
  return { index: index as number, id, prev: prev as string | null, hash };
}
