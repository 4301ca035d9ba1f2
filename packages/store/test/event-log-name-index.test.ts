import { linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serializeEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { eventFileName, slotFileName } from '../src/event-log/file-names.js';
import { nameIndexPath } from '../src/event-log/name-index.js';
import { EventLog } from '../src/event-log.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { userMessageEvent } from './helpers/events.js';
import { describeNameIndex } from './helpers/name-index-suite.js';

describeNameIndex('memory store', { make: async () => ({ store: createMemoryFileStore() }) });

describeNameIndex('local filesystem', {
  make: async () => {
    const root = await mkdtemp(join(tmpdir(), 'x-name-index-'));
    return {
      store: createLocalFileStore({ root, durability: 'none' }),
      cleanup: () => rm(root, { recursive: true, force: true, maxRetries: 5 }),
      // As the local store's appends leave them: each claim, and the event file linked from it.
      writeLog: async (dir, events) => {
        const slots = join(root, dir, '.slots');
        mkdirSync(slots, { recursive: true });
        events.forEach((event, index) => {
          const claim = join(slots, slotFileName(index));
          writeFileSync(claim, serializeEvent(event), { flag: 'wx' });
          linkSync(claim, join(root, dir, eventFileName(index, event.id)));
        });
      },
    };
  },
});

describe('a reader that must not write (nameIndex: { write: false })', () => {
  it('opens a long log written without claims, closes it and leaves the directory as it found it', async () => {
    const store = createMemoryFileStore();
    const dir = 'c/events';
    // As the Python reference leaves a long log: event files only, no .slots.
    for (let index = 0; index < 1100; index++) {
      const event = userMessageEvent(`reference event ${index}`);
      await store.write(`${dir}/${eventFileName(index, event.id)}`, serializeEvent(event));
    }
    const before = await store.list(dir);
    const reader = await EventLog.open(store, { dir, nameIndex: { write: false }, packs: { write: false } });
    expect(reader.length).toBe(1100);
    expect((await reader.range(0)).length).toBe(1100);
    await reader.close();
    expect(await store.list(dir)).toEqual(before);
    expect(await store.exists(nameIndexPath(dir))).toBe(false);

    // A writer's open does write it (the default), and a reader then opens from it.
    const writer = await EventLog.open(store, { dir });
    await writer.close();
    expect(await store.exists(nameIndexPath(dir))).toBe(true);
    const fromIndex = await EventLog.open(store, { dir, nameIndex: { write: false } });
    expect(fromIndex.length).toBe(1100);
  });
});

describe('a reader that must not write (rollForward: false)', () => {
  it('serves an event committed only in its claim from the claim, and writes no event file', async () => {
    const store = createMemoryFileStore();
    const dir = 'c/events';
    const writer = await EventLog.open(store, { dir });
    const first = userMessageEvent('published');
    const second = userMessageEvent('claimed only');
    await writer.append(first);
    await writer.append(second);
    // As if the writer had crashed between the claim and the event file.
    const missing = `${dir}/${eventFileName(1, second.id)}`;
    await store.delete(missing);
    const reader = await EventLog.open(store, { dir, rollForward: false });
    expect(reader.length).toBe(2);
    expect(await reader.get(1)).toEqual(second);
    expect(await store.exists(missing)).toBe(false);
    // The default rolls it forward.
    await EventLog.open(store, { dir });
    expect(await store.exists(missing)).toBe(true);
  });
});
