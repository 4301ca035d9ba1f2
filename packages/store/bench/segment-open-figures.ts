// The EventLog benchmark's segment open section: opening (and reading the last event of) a long log in each
// layout: file-per-event through its name index, segment through its segment index (reads the index, checks its
// last record, scans the records after it), and segment without an index (reads the whole segment: before).
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EventLog } from '../src/event-log.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { ms, ratio, row } from './bench-harness.js';
import { median } from './bench-utils.js';
import { scenarioEvents } from './event-shapes.js';

const SIZES = (process.env.BENCH_SEGMENT_OPEN_EVENTS ?? '10000,100000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_SEGMENT_OPEN_ROUNDS ?? 5);

type Variant = 'files' | 'segment' | 'segment-no-index';

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

/** One open + get(-1); the segment index is moved aside (and back) for `segment-no-index`. */
async function timeOpen(root: string, variant: Variant): Promise<number> {
  const index = join(root, 'events/.slots/segment-index');
  const saved = variant === 'segment-no-index' ? await readFile(index) : undefined;
  if (saved) await rm(index);
  // rollForward: false: a reader that writes nothing, so the moved index is not written again by the open.
  const started = performance.now();
  const log = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), {
    rollForward: variant !== 'segment-no-index',
  });
  await log.get(-1);
  const elapsed = performance.now() - started;
  await log.close();
  if (saved) await writeFile(index, saved);
  return elapsed;
}

export async function benchSegmentOpen(scratch: string): Promise<void> {
  for (const count of SIZES) {
    console.log(`\n## open + get(-1) of a ${count}-event log (median of ${ROUNDS} after a warm-up, variants rotating)`);
    const roots = { files: join(scratch, `open-files-${count}`), segment: join(scratch, `open-segment-${count}`) };
    await writeLog(roots.files, 'files', count);
    await writeLog(roots.segment, 'segment', count);
    const variants: Variant[] = ['files', 'segment', 'segment-no-index'];
    const times = new Map<Variant, number[]>(variants.map((variant) => [variant, []]));
    for (let round = 0; round <= ROUNDS; round++) {
      for (let k = 0; k < variants.length; k++) {
        const variant = variants[(k + round) % variants.length]!;
        const elapsed = await timeOpen(variant === 'files' ? roots.files : roots.segment, variant);
        if (round > 0) times.get(variant)!.push(elapsed);
      }
    }
    const segmentBytes = (await stat(join(roots.segment, 'events/.slots/segment'))).size;
    const indexBytes = (await stat(join(roots.segment, 'events/.slots/segment-index'))).size;
    const files = median(times.get('files')!);
    row(`${count} events, file-per-event layout (name index)`, ms(files));
    for (const variant of ['segment', 'segment-no-index'] as const) {
      const time = median(times.get(variant)!);
      row(
        variant === 'segment'
          ? `${count} events, segment layout, segment index (reads ${(indexBytes / 1e6).toFixed(1)} MB index + its tail)`
          : `${count} events, segment layout, no index (reads the ${(segmentBytes / 1e6).toFixed(0)} MB segment)`,
        ms(time),
        `${ratio(time, files)} the file-per-event open`,
      );
    }
    await rm(roots.files, { recursive: true, force: true, maxRetries: 5 });
    await rm(roots.segment, { recursive: true, force: true, maxRetries: 5 });
  }
}
