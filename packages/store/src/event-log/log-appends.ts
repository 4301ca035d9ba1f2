import type { AnyEvent } from '@x/events';
import { type ChainLink, stagedBodyPath } from '../chain/chain-link.js';
import { writeChainAnchor, writeHeadRecord } from '../chain/chain-records.js';
import { layoutClaim, writeClaim } from '../chain/claim-bytes.js';
import { AppendConflictError } from '../errors/append-conflict-error.js';
import { CorruptEventError } from '../errors/corrupt-event-error.js';
import { DuplicateEventIdError } from '../errors/duplicate-event-id-error.js';
import { LogGapError } from '../errors/log-gap-error.js';
import { StoreError } from '../errors.js';
import { handOver } from '../internal/to-bytes.js';
import { eventIdOfPath } from './file-names.js';
import type { LogCore } from './log-core.js';
import { probeClaims } from './log-discovery.js';
import { repeatedIdProblem } from './log-reads.js';
import { readSlotClaim } from './slot-claims.js';
import { type AppendWrites, claimAndPublish, claimAndPublishMany, writeFromClaim } from './tracked-writes.js';

/** An event ready to append: validated, and its exact bytes (`serializeEvent`). */
export interface PreparedEvent {
  readonly event: AnyEvent;
  readonly json: string;
}

/**
 * Appends one validated event at the end of the log (runs inside the log's queue): claims the next free
 * index, learning every claim it loses, and resolves with the index it won. `expectedIndex`: fails with
 * `AppendConflictError` instead of taking any other index.
 */
export async function appendNow(
  core: LogCore,
  { event, json }: PreparedEvent,
  expectedIndex: number | undefined,
): Promise<number> {
  rejectPastGap(core);
  core.rejectDuplicate(event.id);
  if (expectedIndex !== undefined && expectedIndex !== core.length) {
    // The caller may know of appends this instance has not seen yet.
    if (expectedIndex > core.length) await probeClaims(core, false);
    core.rejectDuplicate(event.id);
    if (expectedIndex !== core.length) {
      throw new AppendConflictError({ eventId: event.id, expectedIndex, actualIndex: core.length });
    }
  }
  for (;;) {
    const index = core.length;
    // The chain link travels in the claim, so it commits atomically with the event (see src/chain).
    const { link, writes, eventBytes } = appendWrites(core, index, { event, json }, await previousHash(core, index));
    if (link.prev === null) await anchorChain(core, index);
    const ownPath = writes.eventFile.path;
    // Once the claim commits the event, it is recorded and the append resolves even if writing its file
    // fails (warned about; the file is rebuilt from the claim), as it is committed in the log.
    const onClaimed = () => core.push(ownPath, event, link);
    const won =
      writes.body !== undefined
        ? (await claimAndPublishMany(core, index, [writes], onClaimed)) === 1
        : await claimAndPublish(core, index, writes, onClaimed);
    if (won) {
      core.packs?.appended(index, { event, bytes: eventBytes });
      core.appended = true;
      return index;
    }
    const claim = await readSlotClaim(core.store, core.slotPath(index));
    if (claim === undefined) {
      throw new CorruptEventError({
        location: core.store.describe(core.slotPath(index)),
        problem: 'the slot is taken but its claim cannot be read',
      });
    }
    const repeated = repeatedIdProblem(core, index, claim.event.id);
    if (repeated !== undefined) {
      throw new CorruptEventError({ location: core.store.describe(core.slotPath(index)), problem: repeated });
    }
    const path = core.eventPath(index, claim.event.id);
    // The winner may have crashed between its claim and its event file: finish its append for it.
    if (!(await core.store.exists(path))) await writeFromClaim(core, index, path, claim);
    core.push(path, claim.event, claim.link);
    if (claim.event.id === event.id) throw new DuplicateEventIdError(event.id, index);
    if (expectedIndex !== undefined) {
      throw new AppendConflictError({ eventId: event.id, expectedIndex, actualIndex: core.length });
    }
  }
}

/** `LogGapError` when the last listing found event files past a missing index (see `LogCore.filesPastGap`). */
function rejectPastGap(core: LogCore): void {
  if (core.filesPastGap === 0) return;
  throw new LogGapError({
    location: core.store.describe(core.dir),
    missingIndex: core.length,
    filesPastGap: core.filesPastGap,
  });
}

/**
 * Appends validated events in order (runs inside the log's queue): where the store writes many pairs at once
 * (`writeIfAbsentThenWriteMany`), one call for the batch; what is left after another writer took a slot, or
 * on other stores, one by one.
 */
export async function appendManyNow(core: LogCore, prepared: readonly PreparedEvent[]): Promise<number[]> {
  rejectPastGap(core);
  for (const { event } of prepared) core.rejectDuplicate(event.id);
  const indices: number[] = [];
  let rest = prepared;
  // A new log's first append settles its directory's version on its own (see claimAndPublish).
  const batches = core.stagesBodies || core.store.writeIfAbsentThenWriteMany !== undefined;
  if (batches && rest.length > 1 && core.length > 0) {
    const start = core.length;
    let previous = await previousHash(core, start);
    if (previous === null) await anchorChain(core, start);
    const links: ChainLink[] = [];
    const eventBytes: Uint8Array[] = [];
    const writes = rest.map((one, offset) => {
      const encoded = appendWrites(core, start + offset, one, previous);
      previous = encoded.link.hash;
      links.push(encoded.link);
      eventBytes.push(encoded.eventBytes);
      return encoded.writes;
    });
    const batch = rest;
    const created = await claimAndPublishMany(core, start, writes, (offset) =>
      core.push(writes[offset]!.eventFile.path, batch[offset]!.event, links[offset]),
    );
    for (let offset = 0; offset < created; offset++) {
      core.packs?.appended(start + offset, { event: batch[offset]!.event, bytes: eventBytes[offset]! });
      indices.push(start + offset);
    }
    if (created > 0) core.appended = true;
    rest = rest.slice(created);
  }
  for (const one of rest) indices.push(await appendNow(core, one, undefined));
  return indices;
}

/**
 * What appending `prepared` at `index` after `prev` writes, and the chain link it commits. The claim is built as
 * bytes, the event's encoded once at its end (see `writeClaim`); the event file is a view of those bytes. Where
 * the store can store the event's bytes once (`writeIfAbsentThenLinkMany`: the local store), a staged body in
 * `.slots/` and a claim holding the link alone, the event file being a hard link of the body; elsewhere the claim
 * holds the link and the event's bytes, and the event file is their second copy on disk (one file per event is all
 * S3 and memory can do), though the memory store keeps both as one buffer (`handOver`). `eventBytes`, the event's
 * UTF-8 bytes, go to the packed read cache too (`PackedReads.appended`).
 */
function appendWrites(
  core: LogCore,
  index: number,
  { event, json }: PreparedEvent,
  prev: string | null,
): { link: ChainLink; writes: AppendWrites; eventBytes: Uint8Array } {
  const layout = layoutClaim(index, event.id, prev, json);
  // Its own allocation, not a slice of Node's shared pool: the memory store keeps it as long as the log.
  const bytes = Buffer.allocUnsafeSlow(layout.size);
  const link = writeClaim(bytes, 0, layout);
  const eventBytes = handOver(bytes, layout.headerBytes + 1);
  const claimPath = core.slotPath(index);
  const eventFile = { path: core.eventPath(index, event.id), data: eventBytes };
  if (!core.stagesBodies) {
    return { link, writes: { claim: { path: claimPath, data: handOver(bytes) }, eventFile }, eventBytes };
  }
  return {
    link,
    writes: {
      // The header line alone (`formatStagedClaim`).
      claim: { path: claimPath, data: bytes.subarray(0, layout.headerBytes + 1) },
      eventFile,
      body: { path: stagedBodyPath(claimPath, link), data: eventBytes },
    },
    eventBytes,
  };
}

/**
 * The link hash the event at `index` chains to: known from this instance's last append or claim read,
 * otherwise read once from the previous claim. Null at 0 and after a claim without a link (the chain
 * starts there), or an unreadable one.
 */
async function previousHash(core: LogCore, index: number): Promise<string | null> {
  if (index === 0) return null;
  if (core.lastLink?.index === index - 1) return core.lastLink.hash;
  try {
    const claim = await readSlotClaim(core.store, core.slotPath(index - 1));
    return claim?.link?.index === index - 1 ? claim.link.hash : null;
  } catch (error) {
    if (!StoreError.isInstance(error)) throw error;
    return null;
  }
}

/**
 * Writes the chain's anchor before the claim of an append that starts the chain (its link has no `prev`), once
 * per instance: from then on a missing slot claim at or after that index is reported, not taken for an
 * unchained log. Before the claim, so no chained event exists without it; a writer that dies in between
 * leaves an anchor over no event, which verification accepts.
 */
export async function anchorChain(core: LogCore, index: number): Promise<void> {
  if (core.anchored) return;
  // The first anchor creates `.chain/` in the log's directory, which moves its listing version: read the
  // version around it, as an append does around its own files, so the log stays verified and its close writes a
  // name index the next open can use (else the first append to an unchained log, one the reference or an older
  // version wrote, made the next open list every name once more). A change by another writer in between is
  // covered as for an append: the index is never trusted over the claims after it.
  const verified = core.verified;
  const before = verified === undefined ? undefined : await core.listingVersion();
  await writeChainAnchor(core.store, core.dir, index);
  core.anchored = true;
  if (verified === undefined || core.verified !== verified || before !== verified.listing) return;
  const after = await core.listingVersion();
  core.verified = after === undefined ? undefined : { listing: after, count: verified.count };
}

/**
 * Records the head this instance reached (`<dir>/.chain/head-{length}.json`) when it appended, so a log cut
 * short or rewritten at its end after this close is caught unsigned. Written once at close, not per append:
 * no extra write or fsync on the append path; the price is that events appended after the last close of a
 * process that then died are covered only by their claims (see the README, "Head records"). Warns, never
 * throws: the events are durable in their claims whatever happens here.
 */
export async function recordHead(core: LogCore): Promise<void> {
  if (!core.appended || core.length === 0) return;
  try {
    await core.publishesFinished();
    const index = core.length - 1;
    const hash = await previousHash(core, core.length);
    if (hash === null) return;
    await writeHeadRecord(core.store, core.dir, {
      length: core.length,
      id: eventIdOfPath(core.paths.at(index)!),
      hash,
    });
    core.appended = false;
  } catch (error) {
    core.logger?.warn(
      `${core.store.describe(core.dir)}: the chain's head record was not written (${error instanceof Error ? error.message : String(error)}); verification cannot tell a truncation of the last events`,
    );
  }
}
