// The EventLog benchmark's segment open section: opening (and reading the last event of) a long log in each
// layout: file-per-event through its name index, segment through its segment index (reads the index, checks its
// last record, scans the records after it), and segment without an index (reads the whole segment: before). Each
// row also gives the time until `close` resolved, which waits for the open's background check of the event files
// (an lstat per file not yet seen whole in this boot: none after a close in this boot; all after a reboot, shown by
// the index's scope rewritten as a reboot changes it, which is what every open did before the scope was recorded).
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EventLog } from '../src/event-log.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { ms, ratio, row } from './bench-harness.js';
import { median } from './bench-utils.js';
import { scenarioEvents } from './event-shapes.js';

const SIZES = (process.env.BENCH_SEGMENT_OPEN_EVENTS ?? '10000,100000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_SEGMENT_OPEN_ROUNDS ?? 5);

type Variant = 'files' | 'segment' | 'segment-rebooted' | 'segment-no-index';

/** Writes a log of `count` events by appends (100 a call) and closes it (which writes its index). */
async function writeLog(root: string, layout: 'files' | 'segment', count: number): Promise<void> {
  const log = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), { layout });
  let batch = [];
  for (const event of scenarioEvents(count)) {
    batch.push(event);
    if (batch.length === 100) {
      await log.appendMany(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await log.appendMany(batch);
  await log.close();
}

/** Rewrites the index header's `files.scope` (outside the index's checksum), as a reboot changes it. */
async function forgetCheckedFiles(index: string): Promise<void> {
  const text = await readFile(index, 'utf8');
  const end = text.indexOf('\n');
  const header = JSON.parse(text.slice(0, end));
  if (header.files) header.files.scope = 'another-boot';
  await writeFile(index, `${JSON.stringify(header)}${text.slice(end)}`);
}

/**
 * One open + get(-1), then close: the time to the event, and to close resolved. The segment index is moved aside
 * (and back) for `segment-no-index`; its checked files are forgotten for `segment-rebooted` (the close that waited
 * for the check records them again).
 */
async function timeOpen(root: string, variant: Variant): Promise<{ read: number; closed: number }> {
  const index = join(root, 'events/.slots/segment-index');
  const saved = variant === 'segment-no-index' ? await readFile(index) : undefined;
  if (saved) await rm(index);
  if (variant === 'segment-rebooted') await forgetCheckedFiles(index);
  // rollForward: false: a reader that writes nothing, so the moved index is not written again by the open.
  const started = performance.now();
  const log = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), {
    rollForward: variant !== 'segment-no-index',
  });
  await log.get(-1);
  const read = performance.now() - started;
  await log.close();
  const closed = performance.now() - started;
  if (saved) await writeFile(index, saved);
  return { read, closed };
}

export async function benchSegmentOpen(scratch: string): Promise<void> {
  for (const count of SIZES) {
    console.log(`\n## open + get(-1) of a ${count}-event log (median of ${ROUNDS} after a warm-up, variants rotating)`);
    const roots = { files: join(scratch, `open-files-${count}`), segment: join(scratch, `open-segment-${count}`) };
    await writeLog(roots.files, 'files', count);
    await writeLog(roots.segment, 'segment', count);
    const variants: Variant[] = ['files', 'segment', 'segment-rebooted', 'segment-no-index'];
    const times = new Map<Variant, { read: number; closed: number }[]>(variants.map((variant) => [variant, []]));
    for (let round = 0; round <= ROUNDS; round++) {
      for (let k = 0; k < variants.length; k++) {
        const variant = variants[(k + round) % variants.length]!;
        const elapsed = await timeOpen(variant === 'files' ? roots.files : roots.segment, variant);
        if (round > 0) times.get(variant)!.push(elapsed);
      }
    }
    const segmentBytes = (await stat(join(roots.segment, 'events/.slots/segment'))).size;
    const indexBytes = (await stat(join(roots.segment, 'events/.slots/segment-index'))).size;
    const medians = (variant: Variant) => {
      const runs = times.get(variant)!;
      return { read: median(runs.map((run) => run.read)), closed: median(runs.map((run) => run.closed)) };
    };
    const files = medians('files');
    row(`${count} events, file-per-event layout (name index)`, ms(files.read), `closed by ${ms(files.closed)}`);
    const labels = {
      segment: `segment index (reads ${(indexBytes / 1e6).toFixed(1)} MB index + its tail), files checked in this boot`,
      'segment-rebooted': 'segment index, after a reboot: every event file checked (as every open did before)',
      'segment-no-index': `no index (reads the ${(segmentBytes / 1e6).toFixed(0)} MB segment; a reader, no check)`,
    };
    for (const variant of ['segment', 'segment-rebooted', 'segment-no-index'] as const) {
      const time = medians(variant);
      row(
        `${count} events, segment layout, ${labels[variant]}`,
        `${ms(time.read)}, ${ratio(time.read, files.read)} the file-per-event open`,
        `closed by ${ms(time.closed)}, ${ratio(time.closed, files.closed)}`,
      );
    }
    await rm(roots.files, { recursive: true, force: true, maxRetries: 5 });
    await rm(roots.segment, { recursive: true, force: true, maxRetries: 5 });
  }
}
