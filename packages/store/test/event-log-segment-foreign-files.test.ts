import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { CorruptEventError } from '../src/errors/corrupt-event-error.js';
import { eventFileName } from '../src/event-log/file-names.js';
import { EventLog } from '../src/event-log.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { userMessageEvent } from './helpers/events.js';
import { referenceView } from './helpers/reference-view.js';
import { collectWarnings } from './helpers/segment-stores.js';

// Event files in a segment log's directory that the segment does not hold (src/event-log/segment/
// foreign-event-files.ts): the Python reference continuing a conversation x wrote in the segment layout appends
// event files only. The reference counts every event file, so one at the log's next index is its next event;
// a segment log that ignored it put its own next event beside it (two files at one index, the reference reading
// either). Stray names (editor backups, temp files, directories, links) stay ignored.

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

async function newRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'x-segment-foreign-'));
  roots.push(root);
  return root;
}

const open = (root: string, options: Parameters<typeof EventLog.open>[1] = {}) =>
  EventLog.open(createLocalFileStore({ root, durability: 'none' }), options);

/** A segment log of `count` events, closed. */
async function segmentLog(root: string, count: number) {
  const events = Array.from({ length: count }, (_, k) => userMessageEvent(`x ${k}`));
  const log = await open(root, { layout: 'segment' });
  await log.appendMany(events);
  await log.close();
  return events;
}

/** What the reference writes when it appends `event` at `index`: `event-{index:05d}-{id}.json`, nulls left out. */
async function referenceAppend(root: string, index: number, event: ReturnType<typeof userMessageEvent>) {
  await writeFile(join(root, 'events', eventFileName(index, event.id)), JSON.stringify(event));
}

describe('EventLog segment layout: event files the reference appended', () => {
  it('are taken into the segment as the next events, and the next append lands after them', async () => {
    const root = await newRoot();
    const ours = await segmentLog(root, 3);
    const theirs = [userMessageEvent('reference 3'), userMessageEvent('reference 4')];
    await referenceAppend(root, 3, theirs[0]!);
    await referenceAppend(root, 4, theirs[1]!);
    const { warnings, logger } = collectWarnings();
    const log = await open(root, { logger });
    expect(log.length).toBe(5);
    expect(warnings.join('\n')).toMatch(/did not hold the event files of indices 3…4 .*taken into the segment/);
    expect((await log.get(4)).id).toBe(theirs[1]!.id);
    const next = userMessageEvent('x after the reference');
    expect(await log.append(next)).toBe(5);
    await log.close();
    const ids = [...ours, ...theirs, next].map((event) => event.id);
    expect(await referenceView(root)).toEqual(ids);
    // The segment holds them now: a reader that never writes sees them, with nothing to warn about.
    const again = collectWarnings();
    const reader = await open(root, { rollForward: false, logger: again.logger });
    expect((await reader.range(0)).map((event) => event.id)).toEqual(ids);
    expect(again.warnings).toEqual([]);
    await reader.close();
    expect(await verifyEventChain(createLocalFileStore({ root }))).toMatchObject({ status: 'verified', length: 6 });
  });

  it('are not taken by a reader that must not write, which warns and writes nothing', async () => {
    const root = await newRoot();
    await segmentLog(root, 2);
    await referenceAppend(root, 2, userMessageEvent('reference 2'));
    const before = await readFile(join(root, 'events/.slots/segment'));
    const { warnings, logger } = collectWarnings();
    const reader = await open(root, { rollForward: false, logger });
    expect(reader.length).toBe(2);
    expect(warnings.join('\n')).toMatch(
      /event files from index 2 on are not in the segment; this reader does not take/,
    );
    await reader.close();
    expect(await readFile(join(root, 'events/.slots/segment'))).toEqual(before);
  });

  it.each([
    ['not an event', (_id: string) => '{"not": "an event"}', /not a valid event|invalid|kind/i],
    ['empty', (_id: string) => '', /the file is empty/],
    [
      'cut short',
      (id: string) => JSON.stringify(userMessageEvent('cut', id)).slice(0, 40),
      /JSON|Unexpected|Unterminated/i,
    ],
  ])(
    'at the next index but %s make appends fail naming the file; nothing is put beside it',
    async (_what, content, problem) => {
      const root = await newRoot();
      const ours = await segmentLog(root, 2);
      const id = userMessageEvent('foreign').id;
      await writeFile(join(root, 'events', eventFileName(2, id)), content(id));
      const { warnings, logger } = collectWarnings();
      const log = await open(root, { logger });
      expect(log.length).toBe(2);
      expect((await log.range(0)).map((event) => event.id)).toEqual(ours.map((event) => event.id));
      expect(warnings.join('\n')).toMatch(/appends fail until it is moved away/);
      const error = await log.append(userMessageEvent('x 2')).catch((caught: unknown) => caught);
      expect(CorruptEventError.isInstance(error)).toBe(true);
      expect((error as CorruptEventError).location).toContain(eventFileName(2, id));
      expect((error as CorruptEventError).problem).toMatch(problem);
      await log.close();
      expect((await readdir(join(root, 'events'))).filter((name) => name.startsWith('event-00002-'))).toEqual([
        eventFileName(2, id),
      ]);
    },
  );

  it('repeating the id of an event the segment holds make appends fail; the id is not served twice', async () => {
    const root = await newRoot();
    const ours = await segmentLog(root, 3);
    await referenceAppend(root, 3, ours[1]!);
    const log = await open(root);
    expect(log.length).toBe(3);
    expect(log.indexOf(ours[1]!.id)).toBe(1);
    await expect(log.append(userMessageEvent('x 3'))).rejects.toMatchObject({
      code: 'corrupt_event',
      problem: expect.stringMatching(/already the event at index 1/),
    });
    await log.close();
  });

  it('two at the next index make appends fail; a link out of the directory there is not followed', async () => {
    const root = await newRoot();
    await segmentLog(root, 1);
    await referenceAppend(root, 1, userMessageEvent('one'));
    await referenceAppend(root, 1, userMessageEvent('other'));
    const log = await open(root);
    expect(log.length).toBe(1);
    await expect(log.append(userMessageEvent('x 1'))).rejects.toMatchObject({
      code: 'corrupt_event',
      problem: expect.stringMatching(/2 event files the segment does not hold share index 1/),
    });
    await log.close();

    const linked = await newRoot();
    await segmentLog(linked, 1);
    const outside = join(await newRoot(), 'event.json');
    const event = userMessageEvent('outside');
    await writeFile(outside, JSON.stringify(event));
    await symlink(outside, join(linked, 'events', eventFileName(1, event.id)));
    const viaLink = await open(linked);
    expect(viaLink.length).toBe(1);
    await expect(viaLink.append(userMessageEvent('x 1'))).rejects.toMatchObject({
      code: 'corrupt_event',
      problem: expect.stringMatching(/cannot be read/),
    });
    await viaLink.close();
  });

  it('at an index the segment holds, under another name, are warned about and leave the log as it is', async () => {
    const root = await newRoot();
    const ours = await segmentLog(root, 3);
    const stray = userMessageEvent('reference 1');
    await referenceAppend(root, 1, stray);
    const { warnings, logger } = collectWarnings();
    const log = await open(root, { logger });
    expect((await log.range(0)).map((event) => event.id)).toEqual(ours.map((event) => event.id));
    expect(log.indexOf(stray.id)).toBe(-1);
    expect(warnings.join('\n')).toMatch(
      new RegExp(`${eventFileName(1, stray.id)}: an event file the segment does not hold, at index 1`),
    );
    expect(await log.append(userMessageEvent('x 3'))).toBe(3);
    await log.close();
  });
});

describe('EventLog segment layout: event files past a missing index', () => {
  it('are warned about and ignored, as the reference ignores them; the run before the gap is taken', async () => {
    const root = await newRoot();
    const ours = await segmentLog(root, 2);
    const taken = userMessageEvent('reference 2');
    const past = userMessageEvent('reference 4');
    await referenceAppend(root, 2, taken);
    await referenceAppend(root, 4, past);
    const { warnings, logger } = collectWarnings();
    const log = await open(root, { logger });
    expect((await log.range(0)).map((event) => event.id)).toEqual([...ours, taken].map((event) => event.id));
    expect(warnings.join('\n')).toMatch(/1 event file\(s\) the segment does not hold lie past index 3, .*ignored/);
    expect(await log.append(userMessageEvent('x 3'))).toBe(3);
    await log.close();
  });
});

describe('EventLog segment layout: stray names in its directory', () => {
  it('are ignored: backups, temp files, odd names, directories named as event files, links', async () => {
    const root = await newRoot();
    const ours = await segmentLog(root, 3);
    const dir = join(root, 'events');
    const id = userMessageEvent('stray').id;
    await writeFile(join(dir, `${eventFileName(3, id)}~`), 'backup');
    await writeFile(join(dir, `${eventFileName(3, id)}.tmp`), 'temp');
    await writeFile(join(dir, '.#event-00003-lock'), 'editor lock');
    await writeFile(join(dir, 'event-3-abcdef01.json'), '{}');
    await mkdir(join(dir, eventFileName(3, id)));
    await symlink('/etc', join(dir, 'event-00004-link'));
    const log = await open(root);
    expect(log.length).toBe(3);
    const next = userMessageEvent('x 3');
    expect(await log.append(next)).toBe(3);
    await log.close();
    const reopened = await open(root);
    expect((await reopened.range(0)).map((event) => event.id)).toEqual([...ours, next].map((event) => event.id));
    await reopened.close();
  });
});
