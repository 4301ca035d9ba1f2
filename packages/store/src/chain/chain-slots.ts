import { parseEventFileName } from '../event-log/file-names.js';
import type { FileStore } from '../file-store.js';
import { type ChainLink, parseSlotClaimBytes, stagedBodyPath } from './chain-link.js';
import { readBytes } from './read-bytes.js';
import { readSegmentClaims, type SegmentClaims } from './segment-claims.js';

/** What verification needs of a slot claim: its link (none for claims written before chaining) and event bytes. */
export interface ClaimParts {
  readonly link: ChainLink | undefined;
  /** The event's bytes in the claim; empty for a claim that is its link alone (see `staged`). */
  readonly json: Uint8Array;
  /** For a claim that is its link alone: its staged body's path, which holds the event's bytes. */
  readonly staged?: string;
}

/** One index as found in the store: its event file(s) and its slot claim. */
export interface Slot {
  readonly files: string[];
  /** The claim, `undefined` when absent, or the error that reading it gave. */
  claim?: ClaimParts | { error: string };
}

const SLOT_NAME = /(?:^|\/)(\d{5,})\.json$/;

export function indexIds(slots: Slot[], headHashes: readonly (string | undefined)[]) {
  const byLinkId = new Map<string, number>();
  /** Every hash some link chains to, or a head names: the events the chain goes on from. */
  const referenced = new Set<string>(headHashes.filter((hash): hash is string => hash !== undefined));
  /** Slots whose claim was made for each index, with that claim's hash. */
  const claimsFor = new Map<number, { slot: number; hash: string }[]>();
  const byFileId = new Map<string, number>();
  const byLinkIndex = new Map<number, number>();
  slots.forEach((slot, index) => {
    const claim = slot.claim;
    if (claim && !('error' in claim) && claim.link && !byLinkId.has(claim.link.id)) {
      byLinkId.set(claim.link.id, claim.link.index);
    }
    if (claim && !('error' in claim) && claim.link) {
      if (!byLinkIndex.has(claim.link.index)) byLinkIndex.set(claim.link.index, index);
      if (claim.link.prev !== null) referenced.add(claim.link.prev);
      const rivals = claimsFor.get(claim.link.index) ?? [];
      rivals.push({ slot: index, hash: claim.link.hash });
      claimsFor.set(claim.link.index, rivals);
    }
    const file = slot.files[0];
    if (file) {
      const id = parseEventFileName(file)!.id;
      if (!byFileId.has(id)) byFileId.set(id, index);
    }
  });
  let publishedLength = slots.length;
  while (publishedLength > 0 && slots[publishedLength - 1]!.files.length === 0) publishedLength--;
  return {
    length: slots.length,
    /** The end of the log without its trailing run of claims whose files are not written yet. */
    publishedLength,
    linkIndexOf: (id: string) => byLinkId.get(id),
    /**
     * The slot of another claim made for `index` that the chain goes on from, when the claim with `hash` is one
     * nothing goes on from (a forged fork); undefined otherwise.
     */
    rivalOf: (index: number, hash: string) => {
      if (referenced.has(hash)) return undefined;
      return claimsFor.get(index)?.find((claim) => claim.hash !== hash && referenced.has(claim.hash))?.slot;
    },
    /** The slot holding the claim that was made for `index`. */
    slotOfLinkIndex: (index: number) => byLinkIndex.get(index),
    fileIndexOf: (id: string) => byFileId.get(id),
    fileAt: (index: number) => {
      const file = slots[index]?.files[0];
      return file ? parseEventFileName(file)!.id : undefined;
    },
  };
}

/** What `indexIds` tells about a log's slots. */
export type SlotIds = ReturnType<typeof indexIds>;

/**
 * Event files and claims by index, up to the highest index either has; for a segment log, the damage its records
 * stop at, if any (see `readSegmentClaims`).
 */
export async function collectSlots(
  store: FileStore,
  dir: string,
): Promise<{ slots: Slot[]; segmentDamage: SegmentClaims['damage'] }> {
  const [listing, claimListing] = await Promise.all([store.list(dir), store.list(`${dir}/.slots`)]);
  const slots: Slot[] = [];
  const at = (index: number): Slot => {
    for (let i = slots.length; i <= index; i++) slots.push({ files: [] });
    return slots[index]!;
  };
  for (const path of listing) {
    const parts = parseEventFileName(path);
    if (parts) at(parts.index).files.push(path);
  }
  const claims: { index: number; path: string }[] = [];
  for (const path of claimListing) {
    const match = SLOT_NAME.exec(path);
    if (match) claims.push({ index: Number(match[1]), path });
  }
  for (const { index } of claims) at(index);
  // A segment log's records are its claims (see event-log/segment/): the same checks apply to them.
  const segment = await readSegmentClaims(store, dir);
  for (const record of segment.claims) at(record.link.index).claim ??= record;
  const read = await readBytes(
    store,
    claims.map((claim) => claim.path),
  );
  claims.forEach(({ index, path }, position) => {
    const bytes = read[position];
    if (!(bytes instanceof Uint8Array)) {
      at(index).claim = { error: bytes === undefined ? `${store.describe(path)}: not read` : bytes.message };
      return;
    }
    // Only the header is decoded: the event bytes are checked by hash, which is all verification needs.
    const parts = parseSlotClaimBytes(bytes);
    at(index).claim =
      parts.eventBytes === undefined
        ? { error: `${store.describe(path)}: ${parts.problem}` }
        : parts.link !== undefined && parts.eventBytes.length === 0
          ? { link: parts.link, json: parts.eventBytes, staged: stagedBodyPath(path, parts.link) }
          : { link: parts.link, json: parts.eventBytes };
  });
  return { slots, segmentDamage: segment.damage };
}

/**
 * The event bytes a claim commits: its own, or its staged body's (read on use: verification needs them only
 * for an event whose file is missing or does not match). Undefined when a staged body cannot be read.
 */
export async function claimedBytes(store: FileStore, claim: ClaimParts): Promise<Uint8Array | undefined> {
  if (claim.staged === undefined) return claim.json;
  const [bytes] = await readBytes(store, [claim.staged]);
  return bytes instanceof Uint8Array ? bytes : undefined;
}
