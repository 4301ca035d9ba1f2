import { closeSync, fsync, openSync, writeFileSync, writeSync } from 'node:fs';
import { mkdir, open, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { type AnyEvent, serializeEvent } from '@x/events';
import { eventFileName } from '../src/event-log/file-names.js';
import { EventLog, type EventLogOptions } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { median, syncDirectory } from './bench-utils.js';

export const APPENDS = Number(process.env.BENCH_APPENDS ?? 10_000);
export const FSYNC_APPENDS = Number(process.env.BENCH_FSYNC_APPENDS ?? 500);
export const S3_APPENDS = Number(process.env.BENCH_S3_APPENDS ?? 500);
export const S3_LATENCY_APPENDS = Number(process.env.BENCH_S3_LATENCY_APPENDS ?? 200);
/** The network round trip the latency-bound S3 row adds to every request (a real endpoint's, roughly). */
export const S3_ROUND_TRIP_MS = Number(process.env.BENCH_S3_ROUND_TRIP_MS ?? 10);
export const OPEN_EVENTS = Number(process.env.BENCH_OPEN_EVENTS ?? 100_000);

export const rows: string[][] = [];
export const ms = (value: number): string => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
export const ratio = (ours: number, floor: number): string => `${(ours / floor).toFixed(2)}×`;
export const perSecond = (count: number, elapsed: number): string => `${Math.round((count * 1000) / elapsed)}/s`;
export function row(...cells: string[]): void {
  rows.push(cells);
  console.log(`  ${cells.join(' | ')}`);
}

export function machine(): void {
  const cpu = cpus();
  console.log('# EventLog benchmark');
  console.log(
    `machine: ${cpu[0]?.model ?? 'unknown cpu'} × ${cpu.length}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ` +
      `node ${process.version}, ${process.platform}/${process.arch}`,
  );
  console.log('reference (Python, performance.md): append 10k local 30.7 events/s overall, 63.6 ms per append at 10k;');
  console.log('  open 10k / 100k: 76 / 823 ms; read+parse 10k: 0.60 s; resume 100k: 8.6 s, 695 MB RSS.');
  console.log('targets: append constant per event and ≤ 1.25× floor; open ≤ 1.5× bare listing and ≤ 100 ms at 100k;');
  console.log('  read+parse 10k ≤ 150 ms; resume 100k ≤ 200 ms and ≤ 100 MB RSS.\n');
}

/** Appends `events` through an EventLog on `store`; returns total ms and ms per append for the first and last 10%. */
export async function timeAppends(store: FileStore, events: readonly AnyEvent[], options: EventLogOptions = {}) {
  const log = await EventLog.open(store, options);
  const tenth = Math.max(1, Math.floor(events.length / 10));
  const started = performance.now();
  let firstTenth = 0;
  let lastTenthStart = 0;
  for (const [i, event] of events.entries()) {
    if (i === events.length - tenth) lastTenthStart = performance.now();
    await log.append(event);
    if (i === tenth - 1) firstTenth = performance.now() - started;
  }
  const last = (performance.now() - lastTenthStart) / tenth;
  // Counted: what a store finishes after the appends resolved (S3's event objects), which close waits for.
  await log.close();
  const total = performance.now() - started;
  return { total, first: firstTenth / tenth, last };
}

/** `appendMany` of `size` events at a time (after one single append, as a conversation's log has); total ms. */
export async function timeBatchedAppends(store: FileStore, events: readonly AnyEvent[], size: number): Promise<number> {
  const log = await EventLog.open(store);
  const started = performance.now();
  await log.append(events[0]!);
  for (let i = 1; i < events.length; i += size) await log.appendMany(events.slice(i, i + size));
  await log.close();
  return performance.now() - started;
}

/** `fsync` of a descriptor through the thread pool. */
export function fsyncFile(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
}

/**
 * The floor: each event's bytes written once to `<dir>/<name>` with the same durability policy. With `sync`,
 * in synchronous calls (with `durable`, all but the two fsyncs, which go through the thread pool).
 */
export async function timeFloorWrites(
  dir: string,
  events: readonly AnyEvent[],
  durable: boolean,
  sync = false,
): Promise<number> {
  await mkdir(dir, { recursive: true });
  const started = performance.now();
  for (const [i, event] of events.entries()) {
    const path = join(dir, eventFileName(i, event.id));
    const json = serializeEvent(event);
    if (!durable) {
      if (sync) writeFileSync(path, json);
      else await writeFile(path, json);
      continue;
    }
    if (sync) {
      const fd = openSync(path, 'w');
      writeSync(fd, json);
      await fsyncFile(fd);
      closeSync(fd);
      const directory = openSync(dir, 'r');
      await fsyncFile(directory);
      closeSync(directory);
      continue;
    }
    const handle = await open(path, 'w');
    await handle.writeFile(json);
    await handle.sync();
    await handle.close();
    await syncDirectory(dir);
  }
  return performance.now() - started;
}

export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/**
 * Runs ours and the floor alternately: one warm-up round of each (not counted), then `ROUNDS` rounds
 * of each, and reports each side's median run. The machine is shared, and alternating keeps a burst
 * of load from landing on one side only.
 */
export async function alternate<T extends { total: number }>(
  ours: (round: number) => Promise<T>,
  floor: (round: number) => Promise<number>,
) {
  const oursRuns: T[] = [];
  const floorRuns: number[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const result = await ours(round);
    const floorTime = await floor(round);
    if (round === 0) continue; // the warm-up, the same for both sides
    oursRuns.push(result);
    floorRuns.push(floorTime);
  }
  oursRuns.sort((a, b) => a.total - b.total);
  return { ours: oursRuns[Math.floor((oursRuns.length - 1) / 2)]!, floor: median(floorRuns) };
}
