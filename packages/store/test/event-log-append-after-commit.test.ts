import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DuplicateEventIdError } from '../src/errors/duplicate-event-id-error.js';
import { eventFileName } from '../src/event-log/file-names.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { userMessageEvent } from './helpers/events.js';
import { collectWarnings } from './helpers/segment-stores.js';

// An append's commit point is its slot claim (or, in the segment layout, its segment record); the reference's
// event file is derived from it. A failure to write that file after the commit must not reject the append: the
// event is in the log, so a caller that took the rejection for "not written" and retried would be refused
// with DuplicateEventIdError, and one that gave up would act as if an event it will read back never happened.

/** Stands in for a disk that refuses the hard link of a staged body at its event file's name (ENOSPC), once. */
const refuse = vi.hoisted(() => ({ name: '' }));

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const linkSync = (...args: Parameters<typeof actual.linkSync>) => {
    if (refuse.name !== '' && String(args[1]).endsWith(`/${refuse.name}`)) {
      refuse.name = '';
      throw Object.assign(new Error(`ENOSPC: no space left on device, link '${String(args[0])}'`), { code: 'ENOSPC' });
    }
    return actual.linkSync(...args);
  };
  return { ...actual, linkSync, default: { ...actual, linkSync } };
});

beforeEach(() => {
  refuse.name = '';
});

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

async function newRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'x-append-after-commit-'));
  roots.push(root);
  return root;
}

/** The memory store through its two plain calls, with `write` failing (not a StoreError) for `failing` paths. */
function failingEventFiles(inner: FileStore, failing: (path: string) => boolean): FileStore {
  return {
    ...inner,
    writeIfAbsentThenWrite: undefined,
    writeIfAbsentThenWriteMany: undefined,
    writeIfAbsentThenLinkMany: undefined,
    write: async (path, data) => {
      if (failing(path)) throw new Error(`EIO: i/o error, write '${path}'`);
      return inner.write(path, data);
    },
  };
}

describe('EventLog append whose event file fails after the commit (file-per-event layout)', () => {
  it('resolves with the index, warns, keeps the event, refuses a retry as a duplicate, and a reopen reads it', async () => {
    const inner = createMemoryFileStore();
    const first = userMessageEvent('first');
    const second = userMessageEvent('second');
    const failing = `events/${eventFileName(1, second.id)}`;
    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(
      failingEventFiles(inner, (path) => path === failing),
      { logger },
    );
    expect(await log.append(first)).toBe(0);
    expect(await log.append(second)).toBe(1);
    expect(warnings.join('\n')).toMatch(/an event file was not finished \(EIO.*rebuilt from it/);
    expect(log.length).toBe(2);
    expect(await log.get(1)).toMatchObject({ id: second.id });
    await expect(log.append(second)).rejects.toBeInstanceOf(DuplicateEventIdError);
    expect(await log.append(userMessageEvent('third'))).toBe(2);
    await log.close();

    const reopened = await EventLog.open(inner);
    expect(reopened.length).toBe(3);
    expect(await reopened.get(1)).toMatchObject({ id: second.id });
    expect(await inner.exists(failing)).toBe(true);
    await reopened.close();
  });

  it('keeps a local appendMany whose staged body cannot be linked at its event file, and a reopen rebuilds it', async () => {
    const root = await newRoot();
    const events = Array.from({ length: 4 }, (_, k) => userMessageEvent(`batch ${k}`));
    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(createLocalFileStore({ root, durability: 'fsync' }), { logger });
    expect(await log.append(userMessageEvent('before'))).toBe(0);
    refuse.name = eventFileName(2, events[1]!.id);
    expect(await log.appendMany(events)).toEqual([1, 2, 3, 4]);
    expect(refuse.name).toBe('');
    expect(warnings.join('\n')).toMatch(/an event file was not finished \(.*no space left on device/);
    for (const [offset, event] of events.entries()) expect(await log.get(offset + 1)).toMatchObject({ id: event.id });
    await expect(log.append(events[1]!)).rejects.toBeInstanceOf(DuplicateEventIdError);
    await log.close();

    const reopened = await EventLog.open(createLocalFileStore({ root, durability: 'fsync' }));
    expect(reopened.length).toBe(5);
    expect(await reopened.get(2)).toMatchObject({ id: events[1]!.id });
    await reopened.close();
    const rebuilt = JSON.parse(await readFile(join(root, 'events', eventFileName(2, events[1]!.id)), 'utf8'));
    expect(rebuilt).toMatchObject({ id: events[1]!.id });
  });

  it.each([
    ['append', false],
    ['appendMany', true],
  ] as const)(
    'resolves a local %s (bodies not staged) whose event file cannot be renamed into place',
    async (_name, many) => {
      const root = await newRoot();
      const log0 = userMessageEvent('first');
      const event = userMessageEvent('blocked');
      const blocked = join(root, 'events', eventFileName(1, event.id));
      await mkdir(blocked, { recursive: true });
      await writeFile(join(blocked, 'occupied'), 'x');
      const { warnings, logger } = collectWarnings();
      const store = createLocalFileStore({ root, durability: 'fsync' });
      const log = await EventLog.open(store, { logger, stageBodies: false, awaitEventFiles: true });
      if (many) expect(await log.appendMany([log0, event, userMessageEvent('after')])).toEqual([0, 1, 2]);
      else expect([await log.append(log0), await log.append(event)]).toEqual([0, 1]);
      expect(warnings.join('\n')).toMatch(/an event file was not finished/);
      expect(await log.get(1)).toMatchObject({ id: event.id });
      await expect(log.append(event)).rejects.toBeInstanceOf(DuplicateEventIdError);
      await log.close();
    },
  );
});

describe("EventLog append whose event file fails after the commit (segment layout, 'each-commit')", () => {
  it('resolves when the store fails with an error that is not a StoreError', async () => {
    const root = await newRoot();
    const inner = createLocalFileStore({ root, durability: 'none' });
    const event = userMessageEvent('segment');
    const store: FileStore = {
      ...inner,
      writeRebuildable: async () => {
        throw new TypeError('a custom store broke');
      },
    };
    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { layout: 'segment', logger });
    expect(await log.append(event)).toBe(0);
    expect(warnings.join('\n')).toMatch(/event files were not written \(a custom store broke\); rebuilt on open/);
    await expect(log.append(event)).rejects.toBeInstanceOf(DuplicateEventIdError);
    await log.close();

    const reopened = await EventLog.open(createLocalFileStore({ root, durability: 'none' }));
    expect(await reopened.get(0)).toMatchObject({ id: event.id });
    await reopened.close();
    expect(JSON.parse(await readFile(join(root, 'events', eventFileName(0, event.id)), 'utf8'))).toMatchObject({
      id: event.id,
    });
  });
});
