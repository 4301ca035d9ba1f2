// The EventLog benchmark's open and read sections: a long log opened (listing, name index, resume) and read whole.
import { spawnSync } from 'node:child_process';
import { link, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEventJson, serializeEvent } from '@x/events';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { eventFileName, slotFileName } from '../src/event-log/file-names.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { APPENDS, ms, OPEN_EVENTS, ROUNDS, ratio, row, timeFloorWrites } from './bench-harness.js';
import { dropPageCache, median, type OpenMeasurement } from './bench-utils.js';
import { scenarioEvents } from './event-shapes.js';

/**
 * Writes `count` scenario events into `<root>/events` as a real log holds them (see the header
 * comment): the claim `events/.slots/{index}.json` with the event's JSON, and the event file as a hard
 * link to it, which is what the local store's `copy` makes.
 */
async function writeLogDirectly(root: string, count: number): Promise<void> {
  const dir = join(root, 'events');
  const slots = join(dir, '.slots');
  await mkdir(slots, { recursive: true });
  const pending = new Set<Promise<void>>();
  let index = 0;
  for (const event of scenarioEvents(count)) {
    const at = index++;
    const claim = join(slots, slotFileName(at));
    const write = writeFile(claim, serializeEvent(event), { flag: 'wx' })
      .then(() => link(claim, join(dir, eventFileName(at, event.id))))
      .then(() => {
        pending.delete(write);
      });
    pending.add(write);
    if (pending.size >= 64) await Promise.race(pending);
  }
  await Promise.all(pending);
}

export async function benchOpen(scratch: string): Promise<void> {
  console.log(`\n## open a log of ${OPEN_EVENTS} events (claims + linked event files, see header)`);
  const root = join(scratch, 'open');
  let started = performance.now();
  await writeLogDirectly(root, OPEN_EVENTS);
  console.log(`  (created in ${ms(performance.now() - started)})`);
  const indexed = createLocalFileStore({ root, durability: 'none' });
  // Without listingVersion: every open lists, as an open without a (current) name index does.
  const store: FileStore = { ...indexed, listingVersion: undefined };
  const bare: number[] = [];
  const lists: number[] = [];
  const opens: number[] = [];
  // Run 0 is everyone's warm-up; runs 1..5 are counted.
  for (let run = 0; run <= 5; run++) {
    started = performance.now();
    await readdir(join(root, 'events'));
    const bareTime = performance.now() - started;
    started = performance.now();
    await store.list('events');
    const listTime = performance.now() - started;
    started = performance.now();
    await EventLog.open(store);
    const openTime = performance.now() - started;
    if (run === 0) continue;
    bare.push(bareTime);
    lists.push(listTime);
    opens.push(openTime);
  }
  row(
    'open, warm cache (median of 5 after a warm-up)',
    ms(median(opens)),
    `bare fs.readdir ${ms(median(bare))}`,
    `ratio ${ratio(median(opens), median(bare))}`,
    `of which FileStore.list ${ms(median(lists))} (${ratio(median(lists), median(bare))} readdir)`,
    'reference 823 ms at 100k',
  );

  // A fresh process, so its RSS is the log's and Node's alone; cold = page cache dropped first.
  const coldOpen = async (mode: 'list' | 'index') => {
    const cold = await dropPageCache();
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./open-log-child.ts', import.meta.url)), root, mode],
      {
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '' },
      },
    );
    if (child.status !== 0) throw new Error(`open-log-child failed: ${child.stderr}`);
    return { cold, measured: JSON.parse(child.stdout) as OpenMeasurement };
  };
  const coldRow = (label: string, { cold, measured }: Awaited<ReturnType<typeof coldOpen>>) =>
    row(
      `${cold.dropped ? 'cold (page cache dropped)' : `cold process, page cache NOT dropped (${cold.reason})`}: ${label}`,
      `open ${ms(measured.openMs)}, last 100 ${ms(measured.lastHundredMs)}`,
      `RSS ${measured.rssBeforeMb.toFixed(0)} MB before → ${measured.rssAfterMb.toFixed(0)} MB after (tsx loader included)`,
      `heap held after GC ${measured.heapAfterGcMb.toFixed(1)} MB (${measured.heapBeforeMb.toFixed(1)} MB before)`,
      'reference resume 100k: 8.6 s, 695 MB',
    );
  coldRow('open (listing) + read last 100', await coldOpen('list'));

  // With its name index: what a log closed by its last process (EventLog.close) opens to.
  const closing = await EventLog.open(indexed);
  await closing.close();
  const indexOpens: number[] = [];
  for (let run = 0; run <= 5; run++) {
    started = performance.now();
    const opened = await EventLog.open(indexed);
    const openTime = performance.now() - started;
    if (opened.length !== OPEN_EVENTS) throw new Error(`the index open found ${opened.length} events`);
    if (run > 0) indexOpens.push(openTime);
  }
  row(
    'open with its name index, warm cache (median of 5 after a warm-up)',
    ms(median(indexOpens)),
    `ratio to bare fs.readdir ${ratio(median(indexOpens), median(bare))}`,
    `${ratio(median(indexOpens), median(opens))} the listing open`,
    'no listing: one stat of the directory, one read of events/.slots/name-index, one claim probe',
  );
  coldRow('open with its name index + read last 100', await coldOpen('index'));

  const log = await EventLog.open(store);
  started = performance.now();
  await log.range(-100);
  row('read last 100 (warm process, fresh log)', ms(performance.now() - started));

  const more = [...scenarioEvents(2_000)];
  started = performance.now();
  for (const event of more.slice(0, 1_000)) await log.append(event);
  const perAppend = (performance.now() - started) / 1_000;
  // The floor in the same 100k-entry directory, since a directory's size affects every create in it.
  const floor = await timeFloorWrites(join(root, 'events'), more.slice(1_000), false);
  row(
    `append 1,000 more to the ${OPEN_EVENTS}-event log (durability none)`,
    `${ms(perAppend)} per append`,
    `floor fs.writeFile in that directory ${ms(floor / 1_000)}`,
    `ratio ${ratio(perAppend, floor / 1_000)}`,
    'same store operations per append as on an empty log: one claim, one write',
  );
}

export async function benchReadAll(root: string): Promise<void> {
  console.log(`\n## read and parse all ${APPENDS} events (the log written by the append bench)`);
  const store = createLocalFileStore({ root, durability: 'none' });
  const fromFiles: number[] = [];
  const fromPacks: number[] = [];
  const packWrites: number[] = [];
  const floor: number[] = [];
  const onePack: number[] = [];
  const verifies: number[] = [];
  const dir = join(root, 'events');
  // The floor of a packed read: the same events as one JSON array in one file, one readFile + JSON.parse.
  const texts = await Promise.all(
    (await readdir(dir)).filter((name) => name.startsWith('event-')).map((name) => readFile(join(dir, name), 'utf8')),
  );
  const single = join(root, 'all-events.json');
  await writeFile(single, `[${texts.join(',')}]`);
  // Run 0 is every side's warm-up; runs 1..ROUNDS are counted.
  for (let run = 0; run <= ROUNDS; run++) {
    let started = performance.now();
    const report = await verifyEventChain(store);
    if (run > 0) verifies.push(performance.now() - started);
    if (report.status !== 'verified' || report.length !== APPENDS) throw new Error(`verify: ${report.status}`);

    // First read: no packs (deleting them is always safe), so every event comes from its file.
    await rm(join(dir, '.slots', 'packs'), { recursive: true, force: true, maxRetries: 5 });
    started = performance.now();
    const log = await EventLog.open(store);
    const events = await log.range(0);
    if (run > 0) fromFiles.push(performance.now() - started);
    if (events.length !== APPENDS) throw new Error(`expected ${APPENDS} events, read ${events.length}`);
    // The packs that read scheduled (off its latency path), timed apart.
    started = performance.now();
    await log.packsSettled();
    if (run > 0) packWrites.push(performance.now() - started);

    started = performance.now();
    const packed = await (await EventLog.open(store)).range(0);
    if (run > 0) fromPacks.push(performance.now() - started);
    if (packed.length !== APPENDS) throw new Error(`expected ${APPENDS} events, read ${packed.length}`);

    started = performance.now();
    const names = (await readdir(dir)).filter((name) => name.startsWith('event-'));
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < names.length) JSON.parse(await readFile(join(dir, names[next++]!), 'utf8'));
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    if (run > 0) floor.push(performance.now() - started);

    started = performance.now();
    JSON.parse(await readFile(single, 'utf8'));
    if (run > 0) onePack.push(performance.now() - started);
  }
  let started = performance.now();
  for (const text of texts) parseEventJson(text);
  const parseOnly = performance.now() - started;
  started = performance.now();
  for (const text of texts) JSON.parse(text);
  const jsonOnly = performance.now() - started;
  row(
    `open + range(0), first read: from the files, no packs (median of ${ROUNDS} after a warm-up)`,
    ms(median(fromFiles)),
    `floor readdir+readFile+JSON.parse per file ${ms(median(floor))}`,
    `ratio ${ratio(median(fromFiles), median(floor))}`,
    `then writing its ${Math.ceil(APPENDS / 1024)} packs, off the read's path: ${ms(median(packWrites))}`,
  );
  row(
    `open + range(0) with packs (${Math.floor(APPENDS / 1024)} of 1024 events${APPENDS % 1024 ? ` + one of the last ${APPENDS % 1024}` : ''})`,
    ms(median(fromPacks)),
    `floor one readFile + JSON.parse of all events as one array ${ms(median(onePack))}`,
    `ratio ${ratio(median(fromPacks), median(onePack))}`,
    `${ratio(median(fromPacks), median(floor))} the per-file floor; reference 0.60 s, target ≤ 150 ms`,
  );
  row('of which parseEventJson alone', ms(parseOnly), `JSON.parse alone ${ms(jsonOnly)}`);
  row(
    `verifyEventChain over the same ${APPENDS} events (local, median of ${ROUNDS} after a warm-up)`,
    ms(median(verifies)),
    `ratio to the first open + range(0) ${ratio(median(verifies), median(fromFiles))}`,
    `to the floor ${ratio(median(verifies), median(floor))}`,
    'reads every event file and its slot claim (2 files per event) and checks the packs against them; target ≤ 150 ms per 10k',
  );
}
