import { mkdtemp, readFile, rm, truncate, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventFileName } from '../src/event-log/file-names.js';
import { SIZE_CHUNK } from '../src/event-log/segment/derived-event-files.js';
import { EventLog } from '../src/event-log.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { userMessageEvent } from './helpers/events.js';
import { collectWarnings, instrumentedStore } from './helpers/segment-stores.js';

// The open's rebuild of a segment log's event files (src/event-log/segment/segment-rebuild.ts): files a crash left
// missing or cut short are rebuilt; a file holding other bytes is left for verifyChain, and the segment index
// records the files as whole only up to it (or up to a file whose rebuild failed), so the next open looks again.

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

const INDEX = 'events/.slots/segment-index';
const COUNT = 1100;
const events = Array.from({ length: COUNT }, (_, k) => userMessageEvent(`event ${k}`));
const eventPath = (root: string, index: number) => join(root, 'events', eventFileName(index, events[index]!.id));

async function closedLog(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'x-segment-rebuild-'));
  roots.push(root);
  const log = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), { layout: 'segment' });
  for (let from = 0; from < COUNT; from += 100) await log.appendMany(events.slice(from, from + 100));
  await log.close();
  return root;
}

async function indexFiles(root: string): Promise<{ scope: string; count: number }> {
  const text = await readFile(join(root, INDEX), 'utf8');
  return JSON.parse(text.slice(0, text.indexOf('\n'))).files;
}

/** As a reboot leaves it: the index's checked files are of another scope, so the open checks every file. */
async function rebooted(root: string): Promise<void> {
  const text = await readFile(join(root, INDEX), 'utf8');
  const end = text.indexOf('\n');
  const header = JSON.parse(text.slice(0, end));
  header.files.scope = 'another-boot:1:2';
  await writeFile(join(root, INDEX), `${JSON.stringify(header)}${text.slice(end)}`);
}

describe('EventLog segment layout: rebuilding event files on open', () => {
  it('rebuilds missing and cut-short files, keeps one with other bytes, and records the files whole up to it', async () => {
    const root = await closedLog();
    const intact = [await readFile(eventPath(root, 300)), await readFile(eventPath(root, 900))];
    await rebooted(root);
    await truncate(eventPath(root, 300), 7);
    await unlink(eventPath(root, 900));
    const other = '{"kind":"something else entirely"}';
    await writeFile(eventPath(root, 500), other);

    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), { logger });
    await log.close();
    expect([await readFile(eventPath(root, 300)), await readFile(eventPath(root, 900))]).toEqual(intact);
    expect(await readFile(eventPath(root, 500), 'utf8')).toBe(other);
    expect(warnings.join('\n')).toMatch(/the event files of events 300, 900 were missing or left unfinished/);
    expect((await indexFiles(root)).count).toBe(500);

    // The next open looks again from the file left as it was, and only from there (its close once more at it).
    const { store, sized } = instrumentedStore(root);
    const again = await EventLog.open(store);
    await again.close();
    expect(sized()).toBeGreaterThanOrEqual(COUNT - 500);
    expect(sized()).toBeLessThanOrEqual(COUNT - 500 + SIZE_CHUNK);
  });

  it('records the files whole only up to the first it failed to rebuild, which the next open rebuilds', async () => {
    const root = await closedLog();
    const intact = await readFile(eventPath(root, 640));
    await rebooted(root);
    await unlink(eventPath(root, 640));
    const { warnings, logger } = collectWarnings();
    const failing = instrumentedStore(root, (path) => path.endsWith('.json'), 'read-only');
    const log = await EventLog.open(failing.store, { logger });
    await log.close();
    expect(warnings.join('\n')).toMatch(/read-only; the event is kept in the segment/);
    await expect(readFile(eventPath(root, 640))).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await indexFiles(root)).count).toBe(640);

    const reopened = await EventLog.open(createLocalFileStore({ root, durability: 'none' }));
    await reopened.close();
    expect(await readFile(eventPath(root, 640))).toEqual(intact);
    expect((await indexFiles(root)).count).toBe(COUNT);
  });

  it.each([4, 1])(
    'rebuilds missing files in a store without file sizes (memory), from one listing (%i events)',
    async (length) => {
      const store = createMemoryFileStore();
      const log = await EventLog.open(store, { layout: 'segment' });
      const few = events.slice(0, length);
      await log.appendMany(few);
      await log.close();
      const path = (index: number) => `events/${eventFileName(index, few[index]!.id)}`;
      const lost = length - 1;
      const intact = await store.read(path(lost));
      await store.delete(path(lost));
      const { warnings, logger } = collectWarnings();
      const reopened = await EventLog.open(store, { logger });
      await reopened.close();
      expect(await store.read(path(lost))).toBe(intact);
      expect(warnings.join('\n')).toMatch(new RegExp(`the event files of events ${lost} were missing`));
    },
  );

  it('leaves the files alone when opened by a reader that does not roll forward', async () => {
    const root = await closedLog();
    await rebooted(root);
    await unlink(eventPath(root, 10));
    const { warnings, logger } = collectWarnings();
    const reader = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), {
      rollForward: false,
      logger,
    });
    expect(reader.length).toBe(COUNT);
    await reader.close();
    expect(warnings.join('\n')).not.toMatch(/rebuilt/);
    await expect(readFile(eventPath(root, 10))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
