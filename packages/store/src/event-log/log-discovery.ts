import type { LogCore } from './log-core.js';
import { publishFromClaim, repeatedIdProblem } from './log-reads.js';
import { listedRun, nameIndexPath, readNameIndex } from './name-index.js';
import { countFilesPastGap, describeScanProblems, scanListing } from './scan.js';
import { probeSlotClaim, type SlotClaim } from './slot-claims.js';

// How a log learns which events exist: a listing of its directory (or, opening, its name index), then the
// slot claims past what was listed, which is also how it learns of other writers' appends.

/**
 * Lists the directory and extends the index with contiguous event files, filling gaps from slot claims.
 * Opening, it takes the names from the name index instead when the directory is unchanged since it was written.
 */
export async function relist(core: LogCore, opening: boolean): Promise<number> {
  const before = opening ? await core.listingVersion() : undefined;
  if (before !== undefined && (await openFromNameIndex(core, before))) return core.length;
  // A new log (no directory yet): it is exactly its appends from the first one on (see `writeEventFile`).
  if (opening && before === undefined && core.store.listingVersion !== undefined) {
    core.verified = { listing: '', count: 0 };
  }
  // Unordered where the store offers it: the scan places names by index, so a sort would be wasted.
  const listing = core.store.listUnordered ? await core.store.listUnordered(core.dir) : await core.store.list(core.dir);
  const scan = scanListing(listing);
  if (before !== undefined && (await core.listingVersion()) === before) {
    // Nothing changed in the directory while it was listed: the listing is its exact contents.
    const count = listedRun(scan);
    if (count !== undefined) core.verified = { listing: before, count };
  }
  const added = await probeClaims(core, true, scan.byIndex);
  core.filesPastGap = countFilesPastGap(scan, core.length);
  if (core.logger) {
    const warnings = describeScanProblems({
      scan,
      length: core.length,
      afterGap: core.filesPastGap,
      describe: (path) => core.store.describe(path),
      dir: core.dir,
      includeNames: opening,
    });
    for (const warning of warnings) core.logger.warn(warning);
  }
  return added;
}

/** Opens from the name index when it was written for the directory's listing version `listing`; false otherwise. */
async function openFromNameIndex(core: LogCore, listing: string): Promise<boolean> {
  const read = await readNameIndex(core.store, core.dir, listing);
  if (read.kind === 'invalid') {
    core.logger?.warn(
      `${core.store.describe(nameIndexPath(core.dir))}: ${read.problem}; the name index is ignored and the directory listed`,
    );
  }
  if (read.kind !== 'current') return false;
  // No string per event: the paths and the id fingerprints are read from the index's text on use.
  core.ids.seed(0, read.text, read.starts, read.count);
  core.paths.adopt(`${core.dir}/`, read.text, read.starts, read.count);
  core.verified = { listing, count: read.count };
  core.indexOnDisk = core.verified;
  // Appends by other instances since the index was written, found through their claims as always.
  await probeClaims(core, true);
  return true;
}

/**
 * Reads slot claims at `length`, `length + 1`, … until one is missing, recording each event. With
 * `rollForward` (open and relist, which know the event file was not listed) it also writes the
 * event file a crashed writer left unwritten; readers that only probe leave that to `get`.
 */
export async function probeClaims(
  core: LogCore,
  rollForward: boolean,
  listed?: readonly (string | undefined)[],
): Promise<number> {
  const before = core.length;
  for (;;) {
    const index = core.length;
    const listedPath = listed?.[index];
    if (listedPath !== undefined) {
      core.push(listedPath, undefined);
      continue;
    }
    const claim = await readClaimForProbe(core, index);
    if (claim === undefined) break;
    const repeated = repeatedIdProblem(core, index, claim.event.id);
    if (repeated !== undefined) {
      // A claim repeating an earlier event's id is damaged like one that does not parse: the log ends before it.
      warnClaimOnce(core, index, `${core.store.describe(core.slotPath(index))}: ${repeated}`);
      break;
    }
    const path = core.eventPath(index, claim.event.id);
    if (rollForward) await publishFromClaim(core, index, path, claim);
    core.push(path, claim.event, claim.link);
  }
  return core.length - before;
}

/** The claim at `index` while looking for appends (see `probeSlotClaim`); warns once per unreadable claim. */
function readClaimForProbe(core: LogCore, index: number): Promise<SlotClaim | undefined> {
  return probeSlotClaim(core.store, core.slotPath(index), (message) => warnClaimOnce(core, index, message));
}

function warnClaimOnce(core: LogCore, index: number, message: string): void {
  if (core.warnedClaim === index) return;
  core.warnedClaim = index;
  core.logger?.warn(`${message}; the log is read up to index ${index - 1}`);
}
