import { appendFile, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serializeEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { DamagedSegmentError } from '../src/errors/damaged-segment-error.js';
import { encodeRecords } from '../src/event-log/segment/segment-records.js';
import { EventLog } from '../src/event-log.js';
import { localSegmentLog } from './helpers/damaged-segment.js';
import { messageText, userMessageEvent } from './helpers/events.js';

// A segment damaged after the fact (a flipped byte in a committed record) against what crashes and lost races
// leave: the first must not open as a shorter log that a next append forks; the others must open as usual.

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

/** A closed segment log of messages m0…m{count-1} in a temp dir. */
const segmentLog = (count: number) => localSegmentLog(count, roots, 'x-segment-damage-');

function collectWarnings(): { warnings: string[]; logger: { warn(message: string): void } } {
  const warnings: string[] = [];
  return { warnings, logger: { warn: (message) => warnings.push(message) } };
}

describe('a segment log whose segment is damaged', () => {
  it('refuses to open past a damaged record that intact events follow, naming the bytes and the lost event', async () => {
    const { root, store, segment } = await segmentLog(6);
    // Without the event file derived from the lost record, nothing can restore it.
    await rm(join(root, 'events', await eventFileName(root, 2)));
    const bytes = await readFile(segment);
    const at = bytes.indexOf('"m2"');
    bytes[at + 2] = 'X'.charCodeAt(0);
    await writeFile(segment, bytes);
    const before = await readdir(join(root, 'events'));

    const opening = EventLog.open(store);
    await expect(opening).rejects.toBeInstanceOf(DamagedSegmentError);
    const error = (await opening.catch((caught: unknown) => caught)) as DamagedSegmentError;
    expect(error).toMatchObject({ code: 'damaged_segment', missingIndex: 2, unrecovered: [2] });
    expect(error.offset).toBeLessThan(at);
    expect(error.end).toBeGreaterThan(at);
    expect(error.location).toContain(segment);
    expect(error.message).toContain(`bytes ${error.offset}…${error.end - 1}`);
    // Nothing was appended over the lost events: the reference holds what it held, once each.
    expect(await readdir(join(root, 'events'))).toEqual(before);
    await expect(EventLog.open(store, { layout: 'segment' })).rejects.toMatchObject({ code: 'damaged_segment' });
  });

  it('refuses to open when its last record was changed after it committed, naming the record', async () => {
    const { root, store, segment } = await segmentLog(6);
    await rm(join(root, 'events', await eventFileName(root, 5)));
    const bytes = await readFile(segment);
    const at = bytes.lastIndexOf('"m5"');
    bytes[at + 2] = 'X'.charCodeAt(0);
    await writeFile(segment, bytes);
    const before = await readdir(join(root, 'events'));

    const error = await EventLog.open(store).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DamagedSegmentError);
    expect(error).toMatchObject({ code: 'damaged_segment', missingIndex: 5, end: bytes.length, unrecovered: [5] });
    const { offset } = error as DamagedSegmentError;
    // The record's header: its magic, where decoding of five intact records stopped.
    expect([...bytes.subarray(offset, offset + 4)]).toEqual([0xff, 0x78, 0x53, 0x31]);
    expect(bytes.indexOf('"m4"')).toBeLessThan(offset);
    expect((error as Error).message).toMatch(/the log's last record, whole but changed/);
    expect(await readdir(join(root, 'events'))).toEqual(before);
  });

  it('opens without the last event when a power loss left its record zero-filled, and appends in its place', async () => {
    const { root, store, segment } = await segmentLog(6);
    const bytes = await readFile(segment);
    // The size reached the disk, the data did not: the record's tail reads as NUL bytes (as does its event file's).
    const at = bytes.lastIndexOf('"m5"');
    bytes.fill(0, at);
    await writeFile(segment, bytes);
    await rm(join(root, 'events', await eventFileName(root, 5)));

    const log = await EventLog.open(store);
    expect(log.length).toBe(5);
    expect(await log.append(userMessageEvent('m5 again'))).toBe(5);
    await log.close();
    const reopened = await EventLog.open(store);
    expect(messageText(await reopened.get(5))).toBe('m5 again');
    await reopened.close();
  });

  it('opens past a torn record followed by a writer that lost the race with a batch', async () => {
    const { store, segment } = await segmentLog(6);
    const torn = encodeRecords([record('torn')], 6, null, 'crashed-writer').bytes;
    await appendFile(segment, torn.subarray(0, Math.floor(torn.length / 2)));
    // A writer that knew of events up to 4 wrote 5, 6 and 7: 5 is taken, 6 does not chain to event 5, and 7
    // chains to its own 6. Not damage: every reader skips all three.
    const lost = encodeRecords([record('l5'), record('l6'), record('l7')], 5, null, 'late-writer').bytes;
    await appendFile(segment, lost);

    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { logger });
    expect(log.length).toBe(6);
    expect(warnings.join('\n')).toMatch(/not an intact record/);
    expect(await log.append(userMessageEvent('m6'))).toBe(6);
    await log.close();
    const reopened = await EventLog.open(store);
    expect((await reopened.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6']);
    await reopened.close();
  });
});

function record(text: string): { event: { id: string }; json: string } {
  const event = userMessageEvent(text);
  return { event, json: serializeEvent(event) };
}

/** The name of the event file of `index` in the log's directory. */
async function eventFileName(root: string, index: number): Promise<string> {
  const prefix = `event-${String(index).padStart(5, '0')}-`;
  return (await readdir(join(root, 'events'))).find((name) => name.startsWith(prefix))!;
}
