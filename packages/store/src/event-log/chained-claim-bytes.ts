import { type ChainLink, computeChainHash, formatChainedClaim } from '../chain/chain-link.js';

/**
 * The link and the claim bytes of the event whose file bytes are `eventBytes`, appended at `index` after
 * `prev`: `formatChainedClaim(link, json)` as UTF-8, with the event's bytes encoded once and shared by the
 * chain hash, the claim and the event file (each would otherwise encode the ~3 KB of JSON again).
 */
export function chainedClaimBytes(
  index: number,
  id: string,
  prev: string | null,
  eventBytes: Uint8Array,
): { link: ChainLink; claim: Buffer } {
  const link: ChainLink = { index, id, prev, hash: computeChainHash(index, prev, eventBytes) };
  const header = Buffer.from(formatChainedClaim(link, ''), 'utf8'); // the header line and its newline
  return { link, claim: Buffer.concat([header, eventBytes], header.length + eventBytes.length) };
}
