import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventFileName } from '../src/event-log/file-names.js';
import {
  formatSegmentIndex,
  parseSegmentIndex,
  readSegmentIndex,
  type SegmentIndexSnapshot,
  segmentIndexPath,
} from '../src/event-log/segment/segment-index.js';
import { crc32 } from '../src/internal/crc32.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';

// The segment index's text, parsed and checked on its own (see segment-index.ts for the format): what a well-formed
// index gives back, and the problem named for each way one can be wrong. An open ignores an invalid index.

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

const id = (index: number) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;

/**
 * A snapshot of `count` events as a segment lays them out: record i at 200·i, its event's 100 bytes 60 bytes
 * into it (after the frame header and the chain header line).
 */
function snapshot(count: number, files?: SegmentIndexSnapshot['files']): SegmentIndexSnapshot {
  const pairs = new Float64Array(count * 2);
  for (let index = 0; index < count; index++) {
    pairs[index * 2] = index * 200 + 60;
    pairs[index * 2 + 1] = 100;
  }
  const namesText = Array.from({ length: count }, (_, index) => `${eventFileName(index, id(index))}\n`).join('');
  return {
    count,
    size: (count - 1) * 200 + 160,
    last: { offset: (count - 1) * 200, crc: 1234 },
    files,
    pairs,
    namesText,
  };
}

/** An index's text from a header (its `crc` computed) and a body, as `formatSegmentIndex` joins them. */
function indexText(header: Record<string, unknown>, body: string): string {
  return `${JSON.stringify({ ...header, crc: crc32(body) })}\n${body}`;
}

function parts(text: string): { header: Record<string, unknown>; body: string } {
  const end = text.indexOf('\n');
  return { header: JSON.parse(text.slice(0, end)), body: text.slice(end + 1) };
}

/** A well-formed index of `count` events with its header changed by `change` (the checksum still right). */
function withHeader(count: number, change: (header: Record<string, unknown>) => void): string {
  const { header, body } = parts(formatSegmentIndex(snapshot(count)));
  change(header);
  return `${JSON.stringify(header)}\n${body}`;
}

/** A well-formed index of `count` events with its positions changed (the header's count and checksum kept right). */
function withPairs(count: number, change: (pairs: Float64Array, header: Record<string, unknown>) => void): string {
  const base = snapshot(count);
  const pairs = new Float64Array(base.pairs);
  const { header } = parts(formatSegmentIndex(base));
  change(pairs, header);
  const body = `${Buffer.from(pairs.buffer).toString('base64')}\n${base.namesText}`;
  return indexText({ ...header }, body);
}

function problemOf(text: string): string {
  const read = parseSegmentIndex(text);
  if (read.kind !== 'invalid') throw new Error(`expected an invalid index, got ${read.kind}`);
  return read.problem;
}

describe('the segment index format', () => {
  it('gives back what was written: counts, positions, the names by their starts, the checked files', () => {
    const written = snapshot(5, { scope: 'boot:1:2', count: 3 });
    const text = formatSegmentIndex(written);
    const read = parseSegmentIndex(text);
    if (read.kind !== 'parsed') throw new Error(JSON.stringify(read));
    expect(read).toMatchObject({ count: 5, size: written.size, last: written.last, files: written.files, text });
    expect([...read.pairs]).toEqual([...written.pairs]);
    expect(read.starts).toHaveLength(6);
    expect(read.starts[5]).toBe(text.length);
    const names = Array.from({ length: 5 }, (_, index) => text.slice(read.starts[index]!, read.starts[index + 1]! - 1));
    expect(names).toEqual(Array.from({ length: 5 }, (_, index) => eventFileName(index, id(index))));
  });

  it('stores the positions as little-endian float64s, whatever the machine', () => {
    const written = snapshot(3);
    const { body } = parts(formatSegmentIndex(written));
    const bytes = Buffer.from(body.slice(0, body.indexOf('\n')), 'base64');
    expect(Array.from({ length: 6 }, (_, k) => bytes.readDoubleLE(k * 8))).toEqual([...written.pairs]);
  });

  it('reads one event whose record starts the segment, and a record header of exactly the bound', () => {
    expect(parseSegmentIndex(formatSegmentIndex(snapshot(1)))).toMatchObject({ kind: 'parsed', count: 1 });
    const far = withPairs(2, (pairs, header) => {
      pairs[2] = 200 + 4096;
      header.size = 200 + 4096 + 100;
    });
    expect(parseSegmentIndex(far)).toMatchObject({ kind: 'parsed', count: 2, size: 4396 });
  });

  it('takes checked files with a zero count, and ignores a malformed files field', () => {
    const zero = withHeader(2, (header) => {
      header.files = { scope: 'boot:1:2', count: 0 };
    });
    expect(parseSegmentIndex(zero)).toMatchObject({ kind: 'parsed', files: { scope: 'boot:1:2', count: 0 } });
    for (const files of [
      null,
      'boot',
      { scope: '', count: 1 },
      { scope: 'boot', count: -1 },
      { scope: 'b', count: 1.5 },
    ]) {
      const text = withHeader(2, (header) => {
        header.files = files;
      });
      expect(parseSegmentIndex(text)).toMatchObject({ kind: 'parsed', count: 2, files: undefined });
    }
    expect(parseSegmentIndex(formatSegmentIndex(snapshot(2)))).toMatchObject({ kind: 'parsed', files: undefined });
  });

  it('rejects a header that is missing, not JSON, or not this format', () => {
    expect(problemOf('')).toBe('no header line');
    expect(problemOf('{"format"\n')).toBe('the header is not JSON');
    for (const header of ['null', '"x-segment-index"', '[1]', '7']) {
      expect(problemOf(`${header}\n${parts(formatSegmentIndex(snapshot(1))).body}`)).toBe(
        'not an x-segment-index v1 header',
      );
    }
    const changes: ((header: Record<string, unknown>) => void)[] = [
      (header) => (header.format = 'x-name-index'),
      (header) => (header.v = 2),
      (header) => (header.count = 0),
      (header) => (header.count = -2),
      (header) => (header.count = 1.5),
      (header) => (header.size = -1),
      (header) => (header.size = '560'),
      (header) => delete header.crc,
      (header) => (header.last = null),
      (header) => (header.last = 'x'),
      (header) => (header.last = { offset: -1, crc: 1 }),
      (header) => (header.last = { offset: 400, crc: 0x1_0000_0000 }),
      (header) => (header.last = { offset: 400 }),
    ];
    for (const change of changes) expect(problemOf(withHeader(3, change))).toBe('not an x-segment-index v1 header');
    // The bounds themselves are valid.
    const edges = withHeader(3, (header) => (header.last = { offset: 400, crc: 0xffffffff }));
    expect(parseSegmentIndex(edges)).toMatchObject({ kind: 'parsed', last: { offset: 400, crc: 0xffffffff } });
    const zeroCrc = withHeader(3, (header) => (header.last = { offset: 400, crc: 0 }));
    expect(parseSegmentIndex(zeroCrc)).toMatchObject({ kind: 'parsed', last: { crc: 0 } });
  });

  it('rejects an index whose body does not match its checksum (a bit flipped, or cut short)', () => {
    const text = formatSegmentIndex(snapshot(3));
    expect(problemOf(`${text.slice(0, -3)}X${text.slice(-2)}`)).toMatch(/checksum does not match/);
    expect(problemOf(text.slice(0, -1))).toMatch(/checksum does not match/);
  });

  it('takes positions out of file order (an event a repair record restored lies after those that follow it)', () => {
    const read = parseSegmentIndex(withPairs(3, (pairs) => (pairs[0] = 5000)));
    if (read.kind !== 'parsed') throw new Error(JSON.stringify(read));
    expect(Array.from(read.pairs.subarray(0, 2))).toEqual([5000, 100]);
  });

  it('rejects positions that are missing, of another count, or not places in the segment', () => {
    const { header } = parts(formatSegmentIndex(snapshot(2)));
    expect(problemOf(indexText({ ...header }, 'AAAA'))).toBe('truncated (no positions line)');
    expect(problemOf(withHeader(2, (changed) => (changed.count = 3)))).toBe(
      'the header says 3 events, the positions line holds 2',
    );
    const cases: [(pairs: Float64Array, header: Record<string, unknown>) => void, RegExp][] = [
      [(pairs) => (pairs[2] = 150), /its events end at byte 250, its header says 360/],
      [(pairs) => (pairs[2] = 260.5), /position of event 1 is not a place in the segment/],
      [(pairs) => (pairs[1] = Number.NaN), /position of event 0 is not a place in the segment/],
      [(pairs) => (pairs[3] = -1), /position of event 1 is not a place in the segment/],
      [(pairs) => (pairs[0] = -60), /position of event 0 is not a place in the segment/],
      [(_, header) => (header.size = 361), /its events end at byte 360, its header says 361/],
      [(_, header) => (header.last = { offset: 260, crc: 1 }), /last record's offset \(260\) is not just before/],
      [(_, header) => (header.last = { offset: 261, crc: 1 }), /last record's offset \(261\) is not just before/],
      [
        (pairs, header) => {
          pairs[2] = 200 + 4097;
          header.size = 200 + 4097 + 100;
        },
        /last record's offset \(200\) is not just before its last event's \(4297\)/,
      ],
    ];
    for (const [change, problem] of cases) expect(problemOf(withPairs(2, change))).toMatch(problem);
  });

  it('rejects names that are missing, too many, cut short, or not the event files of their indices', () => {
    const base = snapshot(3);
    const { header } = parts(formatSegmentIndex(base));
    const positions = parts(formatSegmentIndex(base)).body.split('\n')[0]!;
    const withNames = (names: string) => indexText({ ...header }, `${positions}\n${names}`);
    const name = (index: number, of = index) => eventFileName(index, id(of));
    expect(problemOf(withNames(`${name(0)}\n${name(1)}\n`))).toBe('the header says 3 names, the file has 2');
    expect(problemOf(withNames(`${name(0)}\n${name(1)}\n${name(2)}\n${name(3)}\n`))).toBe(
      'the file has more than the 3 names it says',
    );
    expect(problemOf(withNames(`${name(0)}\n${name(1)}\n${name(2)}`))).toBe('truncated (no final newline)');
    expect(problemOf(withNames(`${name(0)}\n${name(2)}\n${name(1)}\n`))).toMatch(/is not the event file name of index/);
    expect(problemOf(withNames(`${name(0)}\n${name(1)}\nsub/${name(2)}\n`))).toMatch(
      /is not the event file name of index 2/,
    );
  });
});

describe('readSegmentIndex', () => {
  it('tells a missing index from one the store cannot read', async () => {
    const memory = createMemoryFileStore();
    expect(await readSegmentIndex(memory, 'events')).toEqual({ kind: 'absent' });
    await memory.write(segmentIndexPath('events'), formatSegmentIndex(snapshot(2)));
    expect(await readSegmentIndex(memory, 'events')).toMatchObject({ kind: 'parsed', count: 2 });

    const root = await mkdtemp(join(tmpdir(), 'x-segment-index-format-'));
    roots.push(root);
    // A symbolic link where the index should be: the store refuses to follow it (not "not found").
    await mkdir(join(root, 'events/.slots'), { recursive: true });
    await writeFile(join(root, 'elsewhere'), formatSegmentIndex(snapshot(2)));
    await symlink(join(root, 'elsewhere'), join(root, 'events/.slots/segment-index'));
    const read = await readSegmentIndex(createLocalFileStore({ root, durability: 'none' }), 'events');
    expect(read).toMatchObject({ kind: 'invalid', problem: expect.stringContaining('segment-index') });
    // Anything but the store's own errors is not the index's problem: it propagates.
    const failing = { ...memory, read: () => Promise.reject(new TypeError('a bug')) };
    await expect(readSegmentIndex(failing, 'events')).rejects.toThrow('a bug');
  });
});
