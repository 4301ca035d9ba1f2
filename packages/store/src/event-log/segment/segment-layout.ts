import { AppendConflictError } from '../../errors/append-conflict-error.js';
import { DuplicateEventIdError } from '../../errors/duplicate-event-id-error.js';
import { UnsupportedLayoutError } from '../../errors/unsupported-layout-error.js';
import { nodeCrc32 } from '../../internal/crc32.js';
import type { EventLogOptions } from '../event-log-options.js';
import { anchorChain } from '../log-appends.js';
import type { LogCore } from '../log-core.js';
import { relist } from '../log-discovery.js';
import type { SegmentAppend } from '../log-segment.js';
import { findForeignEventFiles } from './foreign-event-files.js';
import { SegmentLog } from './segment-log.js';
import { rebuildEventFiles } from './segment-rebuild.js';

import { segmentPath } from './segment-records.js';

/**
 * Opens `core`'s log as a segment log when it has a segment, or when `options.layout` asks for one and the log
 * is new (`'segment'`); otherwise it stays a file-per-event log: `'listed'` when this already listed it (a log
 * with events asked to become a segment log keeps its layout), `'files'` when the caller opens it as usual;
 * `'again'` when a segment appeared while it looked (open anew).
 */
export async function openSegmentLayout(
  core: LogCore,
  options: EventLogOptions,
  owner: object,
): Promise<'segment' | 'listed' | 'files' | 'again'> {
  const store = core.store;
  const wanted = options.layout === 'segment';
  if (wanted && store.openAppendFile === undefined) {
    throw new UnsupportedLayoutError({ layout: 'segment', location: store.describe(core.dir) });
  }
  if (store.openAppendFile === undefined) return 'files';
  if (!(await store.exists(segmentPath(core.dir)))) {
    if (!wanted) return 'files';
    await relist(core, true);
    if (core.length > 0) {
      // Another writer may have created this log as a segment log between the look above and the listing: its
      // derived event files are then listed here, and keeping "their" file-per-event layout would commit around
      // its segment (both writers taking the same index). A segment log's segment exists before its first event
      // file, so one seen now means start again, as a segment log.
      if (await segmentAppeared(core)) return 'again';
      core.logger?.warn(
        `${store.describe(core.dir)}: the log already holds ${core.length} events in the file-per-event layout; it keeps that layout`,
      );
      return 'listed';
    }
  }
  if (nodeCrc32 === undefined) {
    throw new UnsupportedLayoutError({
      layout: 'segment',
      location: store.describe(core.dir),
      reason:
        "this Node has no zlib.crc32 (it came in Node 20.15 / 22.2), which the segment's record checksums need; use a newer Node, or the default layout for new logs",
    });
  }
  const segment = await SegmentLog.open(core, owner, {
    eventFiles: options.eventFiles ?? 'each-commit',
    damagedSegment: options.damagedSegment,
  });
  core.segment = segment;
  if (!segment.readOnly) await takeForeignEventFiles(core, segment);
  // A long log read whole (no index, or one that did not match) gets its index, so the next open reads a tail.
  const indexed = segment.writeIndexIfDue('open');
  if (indexed !== undefined) {
    if (core.deferPublish) core.deferPublish(indexed);
    else await indexed;
  }
  // After open resolves (an lstat per event is most of a long log's open): `close` waits for it.
  const rebuilt = rebuildEventFiles(core, segment).then(() => undefined);
  if (core.deferPublish) core.deferPublish(rebuilt);
  else await rebuilt;
  return 'segment';
}

/**
 * Takes the event files at the log's next indices that another program wrote (see `findForeignEventFiles`) into
 * the segment, as its next events with their exact bytes, and makes appends fail on one it cannot take. A
 * reader that must not write only warns: a writer's open takes them.
 */
async function takeForeignEventFiles(core: LogCore, segment: SegmentLog): Promise<void> {
  if (await segment.listing.unchangedSinceClose(core)) return;
  // Listed first, then the segment read again: a file another writer derived from its record is then held.
  const found = await findForeignEventFiles(core, () => segment.catchUp());
  const where = core.store.describe(core.dir);
  for (const warning of found.warnings) core.logger?.warn(warning);
  if (!core.rollsForward) {
    if (found.take.length > 0 || found.blocked !== undefined) {
      core.logger?.warn(
        `${where}: event files from index ${core.length} on are not in the segment; this reader does not take them (a writer's open does)`,
      );
    }
    return;
  }
  if (found.take.length > 0) {
    const first = core.length;
    try {
      await appendToSegment(core, found.take, first);
    } catch (error) {
      // Another writer appended at that index in between: its event is the log's, and the file is left as it is.
      if (!AppendConflictError.isInstance(error) && !DuplicateEventIdError.isInstance(error)) throw error;
      core.logger?.warn(
        `${where}: the event files from index ${first} on were not taken into the segment (${error.message})`,
      );
      return;
    }
    const indices = core.length - first === 1 ? `index ${first}` : `indices ${first}…${core.length - 1}`;
    core.logger?.warn(
      `${where}: the segment did not hold the event files of ${indices} (another program wrote them, or the segment lost its end after they were derived); taken into the segment as the log's next events`,
    );
  }
  if (found.blocked !== undefined) {
    core.logger?.warn(`${found.blocked.message}; appends fail until it is moved away`);
    // An append would put a second event beside that file.
    segment.listing.refused = found.blocked;
  }
}

/**
 * Whether a segment exists now for a log this instance listed as file-per-event (see `openSegmentLayout`: a
 * writer that created the log as a segment log after this one looked). Also for a listing that found no events:
 * a segment writer creates its segment before its first event, and this instance's first append would otherwise
 * commit event 0 beside that writer's.
 */
export async function segmentAppeared(core: LogCore): Promise<boolean> {
  return core.store.openAppendFile !== undefined && (await core.store.exists(segmentPath(core.dir)));
}

/** Appends through the segment (runs inside the log's queue): see `SegmentLog.append`. */
export async function appendToSegment(
  core: LogCore,
  batch: readonly SegmentAppend[],
  expectedIndex: number | undefined,
): Promise<number[]> {
  const segment = core.segment!;
  // Before anything is written (the chain's anchor included): a log opened read-only past damage takes no event.
  segment.assertWritable();
  if (expectedIndex !== undefined && expectedIndex > core.length) await segment.catchUp();
  // The first event of a segment log starts the chain: its anchor is written (once, fsynced) before it.
  if (core.length === 0) await anchorChain(core, 0);
  const indices = await segment.append(batch, expectedIndex);
  for (const index of indices) core.packs?.appended(index);
  const indexed = segment.writeIndexIfDue('append');
  if (indexed !== undefined) {
    if (core.deferPublish) core.deferPublish(indexed);
    else await indexed;
  }
  return indices;
}
