/**
 * What a durable agent step costs the local store (issue 33): bytes on disk and wall-clock time per step
 * (a step = two commits, an ActionEvent of ~1 KB and an ObservationEvent of ~3 KB, performance.md's shapes),
 * next to the physical floor: the same event bytes appended to one segment file, fdatasync after each. Two
 * layouts, in rotation with the floor: staged bodies (what the local store writes by default) and full claims
 * (`stageBodies: false`, as every append was written before issue 33).
 * `pnpm --filter @x/store exec tsx bench/storage-cost.bench.ts` (BENCH_STEPS, default 200; BENCH_ROUNDS,
 * default 3, alternating ours and the floor, medians). System calls per append: run it under
 * `strace -f -c -e trace=!futex,epoll_wait,epoll_pwait` with BENCH_ROUNDS=1 (see the README, "Storage and
 * system calls per step").
 */
import { closeSync, fdatasyncSync, lstatSync, openSync, readdirSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AnyEvent, serializeEvent } from '@x/events';
import { EventLog } from '../src/event-log.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { median } from './bench-utils.js';
import { scenarioEvents } from './event-shapes.js';

const STEPS = Number(process.env.BENCH_STEPS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** Disk blocks and apparent bytes under `dir`, each inode counted once (hard links share one). */
function diskUsage(dir: string): { blocks: number; bytes: number; files: number } {
  const seen = new Set<number>();
  let blocks = 0;
  let bytes = 0;
  let files = 0;
  const walk = (path: string): void => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) {
        walk(full);
        continue;
      }
      files++;
      const stat = lstatSync(full);
      if (seen.has(stat.ino)) continue;
      seen.add(stat.ino);
      blocks += stat.blocks * 512;
      bytes += stat.size;
    }
  };
  walk(dir);
  return { blocks, bytes, files };
}

function stepsOf(): { head: AnyEvent[]; steps: [AnyEvent, AnyEvent][] } {
  const all = [...scenarioEvents(2 + 2 * STEPS)];
  const steps: [AnyEvent, AnyEvent][] = [];
  for (let i = 2; i < all.length; i += 2) steps.push([all[i]!, all[i + 1]!]);
  return { head: all.slice(0, 2), steps };
}

type Layout = 'staged' | 'full claims';

async function ours(
  root: string,
  layout: Layout,
): Promise<{ msPerStep: number; eventBytes: number; disk: ReturnType<typeof diskUsage> }> {
  const { head, steps } = stepsOf();
  const store = createLocalFileStore({ root, durability: 'fsync' });
  const log = await EventLog.open(store, { packs: false, stageBodies: layout === 'staged' });
  for (const event of head) await log.append(event);
  const headUsage = diskUsage(join(root, 'events'));
  let eventBytes = 0;
  const started = performance.now();
  for (const [action, observation] of steps) {
    await log.append(action);
    await log.append(observation);
    eventBytes += Buffer.byteLength(serializeEvent(action)) + Buffer.byteLength(serializeEvent(observation));
  }
  const elapsed = performance.now() - started;
  await log.close();
  const after = diskUsage(join(root, 'events'));
  // What the steps added (the head's 20 KB system prompt and the chain's anchor are left out; the head record
  // `close` writes is counted, one small file per close).
  const disk = {
    blocks: after.blocks - headUsage.blocks,
    bytes: after.bytes - headUsage.bytes,
    files: after.files - headUsage.files,
  };
  return { msPerStep: elapsed / steps.length, eventBytes, disk };
}

function floor(root: string): { msPerStep: number } {
  const { steps } = stepsOf();
  const fd = openSync(join(root, 'segment'), 'a');
  try {
    const started = performance.now();
    for (const [action, observation] of steps) {
      writeSync(fd, `${serializeEvent(action)}\n`);
      fdatasyncSync(fd);
      writeSync(fd, `${serializeEvent(observation)}\n`);
      fdatasyncSync(fd);
    }
    return { msPerStep: (performance.now() - started) / steps.length };
  } finally {
    closeSync(fd);
  }
}

console.log(
  `# storage and durable step cost — node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}`,
);
console.log(
  `load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ')}; ${STEPS} steps, ${ROUNDS} rounds`,
);
const layouts: Layout[] = ['staged', 'full claims'];
const times = new Map<Layout | 'floor', number[]>([
  ['staged', []],
  ['full claims', []],
  ['floor', []],
]);
const last = new Map<Layout, Awaited<ReturnType<typeof ours>>>();
for (let round = 0; round <= ROUNDS; round++) {
  for (const layout of layouts) {
    const a = await mkdtemp(join(tmpdir(), 'x-storage-cost-'));
    const b = await mkdtemp(join(tmpdir(), 'x-storage-floor-'));
    try {
      const measured = await ours(a, layout);
      const floored = floor(b);
      // Round 0 is the warm-up of every side.
      if (round > 0) {
        times.get(layout)!.push(measured.msPerStep);
        times.get('floor')!.push(floored.msPerStep);
        last.set(layout, measured);
      }
    } finally {
      await rm(a, { recursive: true, force: true });
      await rm(b, { recursive: true, force: true });
    }
  }
}
const perStep = (value: number) => (value / STEPS / 1024).toFixed(2);
const f = median(times.get('floor')!);
for (const layout of layouts) {
  const measured = last.get(layout);
  if (measured === undefined) continue;
  const { disk, eventBytes } = measured;
  const o = median(times.get(layout)!);
  console.log(
    `${layout}: events' JSON ${perStep(eventBytes)} KB per step; on disk (each inode once; ${disk.files} names for ${2 * STEPS} events) ` +
      `${perStep(disk.bytes)} KB apparent (${(disk.bytes / eventBytes).toFixed(2)}×), ${perStep(disk.blocks)} KB in blocks ` +
      `(${(disk.blocks / eventBytes).toFixed(2)}×); durable step ${o.toFixed(2)} ms against the floor's ${f.toFixed(2)} ms ` +
      `(segment append + fdatasync, twice): ${(o / f).toFixed(2)}× (medians of ${ROUNDS})`,
  );
}
