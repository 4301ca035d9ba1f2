import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventLog } from '../src/event-log.js';
import type { AppendFile, FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { userMessageEvent } from './helpers/events.js';

// The background writer of a segment log with eventFiles 'batched' (src/event-log/segment/derived-event-files.ts)
// while something is still under way: a commit waiting for its write, or the writer's own writes. The segment's
// appends and the event files' writes are held at gates the test opens, and the idle timer is faked (only
// setTimeout), so every "meanwhile" is a step of the test, not a race.

const roots: string[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

/** Calls to `pass` wait at a shut gate until the test opens it; `entered` counts those that reached it shut. */
class Gate {
  #open = true;
  #release: (() => void) | undefined;
  #opened = Promise.resolve();
  entered = 0;

  shut(): void {
    this.#open = false;
    this.#opened = new Promise((resolve) => {
      this.#release = resolve;
    });
  }

  open(): void {
    this.#open = true;
    this.#release?.();
  }

  async pass(): Promise<void> {
    if (this.#open) return;
    this.entered++;
    await this.#opened;
  }
}

/** The local store, its segment appends and event file writes held at gates, the event files written counted. */
function gatedStore(root: string): { store: FileStore; commits: Gate; files: Gate; written: () => number } {
  const inner = createLocalFileStore({ root, durability: 'none' });
  const commits = new Gate();
  const files = new Gate();
  let written = 0;
  const store: FileStore = {
    ...inner,
    openAppendFile: async (path) => {
      const file = await inner.openAppendFile!(path);
      const gated: AppendFile = {
        scope: file.scope,
        append: async (data) => {
          await commits.pass();
          return file.append(data);
        },
        readFrom: (offset, length) => file.readFrom(offset, length),
        close: () => file.close(),
      };
      return gated;
    },
    writeRebuildable: async (batch) => {
      await files.pass();
      await inner.writeRebuildable!(batch);
      written += batch.filter((file) => file.path.endsWith('.json')).length;
    },
  };
  return { store, commits, files, written: () => written };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Takes turns of the event loop until `condition` holds (at most `turns` of them), then reports whether it did. */
async function within(turns: number, condition: () => boolean): Promise<boolean> {
  for (let turn = 0; turn < turns && !condition(); turn++) await nextTurn();
  return condition();
}

async function batchedLog(): Promise<{ log: EventLog } & ReturnType<typeof gatedStore>> {
  const root = await mkdtemp(join(tmpdir(), 'x-segment-writer-'));
  roots.push(root);
  const gated = gatedStore(root);
  const log = await EventLog.open(gated.store, { layout: 'segment', eventFiles: 'batched' });
  return { log, ...gated };
}

describe("EventLog segment layout: eventFiles 'batched' while work is under way", () => {
  it('is not idle while a commit waits for its write: no file is written until that commit is done', async () => {
    const { log, commits, written } = await batchedLog();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await log.appendMany([userMessageEvent('a'), userMessageEvent('b')]);
    commits.shut();
    const appending = log.append(userMessageEvent('c'));
    expect(await within(1000, () => commits.entered === 1)).toBe(true);
    // Far past the idle time, while the commit still waits: the log is busy, not idle.
    vi.advanceTimersByTime(60_000);
    await nextTurn();
    await nextTurn();
    expect(written()).toBe(0);
    commits.open();
    expect(await appending).toBe(2);
    vi.advanceTimersByTime(60_000);
    expect(await within(1000, () => written() === 3)).toBe(true);
    vi.useRealTimers();
    await log.close();
  });

  it('writes the file of an event appended while the writer was busy once the log is idle again, not at close', async () => {
    const { log, files, written } = await batchedLog();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await log.appendMany([userMessageEvent('a'), userMessageEvent('b'), userMessageEvent('c')]);
    files.shut();
    vi.advanceTimersByTime(60_000);
    expect(await within(1000, () => files.entered === 1)).toBe(true);
    // Appended while the writer holds the first three; idle again before the writer is done.
    await log.append(userMessageEvent('d'));
    vi.advanceTimersByTime(60_000);
    files.open();
    expect(await within(1000, () => written() === 3)).toBe(true);
    await nextTurn();
    vi.advanceTimersByTime(60_000);
    expect(await within(1000, () => written() === 4)).toBe(true);
    vi.useRealTimers();
    await log.close();
  });

  it('holds an append back once twice the files the writer takes at once are waiting for it', async () => {
    const { log, files, written } = await batchedLog();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await log.append(userMessageEvent('first'));
    files.shut();
    vi.advanceTimersByTime(60_000);
    expect(await within(1000, () => files.entered === 1)).toBe(true);
    vi.useRealTimers();
    // 2 × 4096 files held (MAX_HELD in derived-event-files.ts): the append is committed, and waits for the writer.
    let appended = false;
    const appending = log
      .appendMany(Array.from({ length: 8192 }, (_, k) => userMessageEvent(`event ${k}`)))
      .then((indices) => {
        appended = true;
        return indices;
      });
    expect(await within(100_000, () => log.length === 8193)).toBe(true);
    expect(await within(50, () => appended)).toBe(false);
    files.open();
    expect((await appending).at(-1)).toBe(8192);
    await log.close();
    expect(written()).toBe(8193);
  }, 120_000);
});
