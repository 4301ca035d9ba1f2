import { describe, expect, it } from 'vitest';
import {
  damagedLastRecords,
  decodeRecords,
  encodeRecords,
  lastFramedRecordStart,
  RECORD_HEADER_BYTES,
  SegmentChain,
  type SegmentRecord,
} from '../src/event-log/segment/segment-records.js';
import { crc32 } from '../src/internal/crc32.js';

// The segment's record framing read back from bytes as a crash or damage leaves them (see segment-records.ts):
// where each intact record and its event's bytes are, which runs are skipped, where decoding stops; and the rule
// that picks the log's events among the records.

const WRITER = '0123456789abcdef';
const id = (index: number) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
const input = (index: number, text = `event ${index}`) => ({
  event: { id: id(index) },
  json: `{"id":"${id(index)}","text":"${text}"}`,
});

/** Records for events `start…start+count-1`, chained from `prev`. */
function encoded(start: number, count: number, prev: string | null = null) {
  return encodeRecords(
    Array.from({ length: count }, (_, k) => input(start + k)),
    start,
    prev,
    WRITER,
  );
}

const garbage = (length: number) => Buffer.alloc(length, 0x41);

describe('decodeRecords', () => {
  it('gives each record its place in the file and its event bytes', () => {
    const { bytes, records } = encoded(0, 3);
    const base = 5000;
    const decoded = decodeRecords(bytes, base);
    expect(decoded.skipped).toEqual([]);
    expect(decoded.end).toBe(base + bytes.length);
    expect(decoded.records.map((record) => [record.offset, record.end])).toEqual(
      records.map((record) => [base + record.offset, base + record.end]),
    );
    decoded.records.forEach((record, k) => {
      const json = input(k).json;
      expect(Buffer.from(record.json).toString('utf8')).toBe(json);
      expect(record.jsonLength).toBe(Buffer.byteLength(json));
      expect(record.jsonOffset).toBe(record.end - record.jsonLength);
      const local = record.jsonOffset - base;
      expect(bytes.subarray(local, local + record.jsonLength).toString('utf8')).toBe(json);
      expect(record.link).toEqual(records[k]!.link);
    });
  });

  it('skips bytes before, between and after damaged records, and reports each run once', () => {
    const first = encoded(0, 1).bytes;
    const second = encoded(1, 1, encoded(0, 1).records[0]!.link.hash).bytes;
    const damaged = Buffer.from(second);
    damaged[damaged.length - 2] = damaged[damaged.length - 2]! ^ 1;
    const bytes = Buffer.concat([garbage(7), first, damaged, garbage(3), second]);
    const base = 100;
    const decoded = decodeRecords(bytes, base);
    expect(decoded.records.map((record) => record.link.index)).toEqual([0, 1]);
    const afterFirst = 7 + first.length;
    expect(decoded.skipped).toEqual([
      { offset: base, end: base + 7 },
      { offset: base + afterFirst, end: base + afterFirst + damaged.length + 3 },
    ]);
    expect(decoded.records[1]!.offset).toBe(base + afterFirst + damaged.length + 3);
    expect(decoded.end).toBe(base + bytes.length);
  });

  it.each([
    ['a record cut short', (record: Buffer) => record.subarray(0, record.length - 1)],
    ['a header cut short', (record: Buffer) => record.subarray(0, 11)],
    ['the magic alone', (record: Buffer) => record.subarray(0, 4)],
    [
      'a record whose length runs past the bytes',
      (record: Buffer) => {
        const copy = Buffer.from(record);
        copy.writeUInt32LE(record.length, 4);
        return copy;
      },
    ],
    [
      'a record whose checksum does not match',
      (record: Buffer) => {
        const copy = Buffer.from(record);
        copy.writeUInt32LE((copy.readUInt32LE(8) + 1) >>> 0, 8);
        return copy;
      },
    ],
  ])('stops before %s at the end (not consumed, not reported)', (_, cut) => {
    const { bytes: whole } = encoded(0, 2);
    const first = encoded(0, 1).bytes;
    const tail = cut(Buffer.from(whole.subarray(first.length)));
    const decoded = decodeRecords(Buffer.concat([first, tail]), 10);
    expect(decoded.records.map((record) => record.link.index)).toEqual([0]);
    expect(decoded.skipped).toEqual([]);
    expect(decoded.end).toBe(10 + first.length);
  });

  it('skips a record with a valid checksum whose id this store would not write into a file name', () => {
    const bad = encodeRecords([{ event: { id: 'a/b' }, json: '{"id":"a/b"}' }], 0, null, WRITER).bytes;
    const good = encoded(0, 1).bytes;
    const decoded = decodeRecords(Buffer.concat([bad, good]), 0);
    expect(decoded.records.map((record) => record.link.id)).toEqual([id(0)]);
    expect(decoded.skipped).toEqual([{ offset: 0, end: bad.length }]);
  });

  it.each([
    ['an event without a chain header', '{"id":"x"}'],
    ['a chain header without an event after it', '{"chain":1,"index":0}'],
    ['a chain header that is not JSON', '{"chain":1,oops}\n{}'],
  ])('skips an intact frame around %s', (_, payload) => {
    const bytes = Buffer.from(payload, 'utf8');
    const frame = Buffer.alloc(12);
    Buffer.from([0xff, 0x78, 0x53, 0x31]).copy(frame);
    frame.writeUInt32LE(bytes.length, 4);
    frame.writeUInt32LE(crc32(bytes), 8);
    const good = encoded(0, 1).bytes;
    const decoded = decodeRecords(Buffer.concat([frame, bytes, good]), 0);
    expect(decoded.records.map((record) => record.link.id)).toEqual([id(0)]);
    expect(decoded.skipped).toEqual([{ offset: 0, end: 12 + bytes.length }]);
  });

  it('finds nothing in bytes without a record', () => {
    expect(decodeRecords(new Uint8Array(0), 42)).toEqual({ records: [], skipped: [], end: 42 });
    expect(decodeRecords(garbage(30), 42)).toEqual({ records: [], skipped: [], end: 42 });
  });

  it('reads records from a view into a larger buffer', () => {
    const { bytes } = encoded(0, 2);
    const larger = Buffer.concat([garbage(9), bytes, garbage(9)]);
    const view = new Uint8Array(larger.buffer, larger.byteOffset + 9, bytes.length);
    const decoded = decodeRecords(view, 0);
    expect(decoded.records.map((record) => record.link.index)).toEqual([0, 1]);
    expect(decoded.end).toBe(bytes.length);
  });
});

describe('lastFramedRecordStart', () => {
  it('finds the last record from the end by its length and checksum, its magic changed or not', () => {
    const { bytes, records } = encoded(0, 3);
    const damaged = Buffer.from(bytes);
    damaged[records[1]!.offset + 6] = damaged[records[1]!.offset + 6]! ^ 1;
    damaged[records[2]!.offset] = damaged[records[2]!.offset]! ^ 1;
    expect(lastFramedRecordStart(damaged, records[1]!.offset, damaged.length)).toBe(records[2]!.offset);
    expect(lastFramedRecordStart(bytes, 0, bytes.length)).toBe(records[2]!.offset);
    // Not before `from`, nor past the end it is given.
    expect(lastFramedRecordStart(bytes, records[2]!.offset + 1, bytes.length)).toBeUndefined();
    expect(lastFramedRecordStart(bytes, 0, records[2]!.end - 1)).toBeUndefined();
  });

  it('finds nothing in a write cut short, nor where a power loss left the last byte zero', () => {
    const { bytes, records } = encoded(0, 2);
    expect(lastFramedRecordStart(bytes, 0, bytes.length - 7)).toBeUndefined();
    const zeroed = Buffer.from(bytes);
    zeroed[zeroed.length - 1] = 0;
    expect(lastFramedRecordStart(zeroed, 0, zeroed.length)).toBeUndefined();
    expect(lastFramedRecordStart(bytes, 0, records[0]!.end)).toBe(0);
  });
});

describe('SegmentChain', () => {
  const records = (bytes: Buffer) => decodeRecords(bytes, 0).records;

  function chain(next = 0, prev: string | null = null, known: string[] = []) {
    return new SegmentChain({ next, prev, known: (eventId) => known.includes(eventId) });
  }

  it('accepts the log from its start, each record chained to the one before', () => {
    const all = records(encoded(0, 3).bytes);
    const rule = chain();
    expect(all.map((record) => rule.accept(record))).toEqual([true, true, true]);
    expect(rule.next).toBe(3);
  });

  it('rejects a record for another index, one not chained to the last, and one whose id is known', () => {
    const [zero, one] = records(encoded(0, 2).bytes) as [SegmentRecord, SegmentRecord];
    const rule = chain();
    expect(rule.accept(one)).toBe(false);
    expect(rule.next).toBe(0);
    expect(rule.accept(zero)).toBe(true);
    expect(rule.accept(zero)).toBe(false);
    // Index 1 after another event 0: chained to that event, not this one.
    const elsewhere = records(encoded(1, 1, 'ff'.repeat(32)).bytes)[0]!;
    expect(rule.accept(elsewhere)).toBe(false);
    expect(rule.accept(one)).toBe(true);
    expect(rule.next).toBe(2);

    const knowing = chain(0, null, [id(0)]);
    expect(knowing.accept(zero)).toBe(false);
    expect(knowing.next).toBe(0);
  });

  it('continues from a known event: the next index and its hash', () => {
    const [zero, one] = records(encoded(0, 2).bytes) as [SegmentRecord, SegmentRecord];
    const rule = chain(1, zero.link.hash);
    expect(rule.accept(one)).toBe(true);
    expect(rule.next).toBe(2);
    // The chain starts at index 0 whatever `prev` says.
    expect(chain(0, zero.link.hash).accept(zero)).toBe(true);
  });
});

describe('damagedLastRecords', () => {
  const base = 1000;
  /** Two records from file offset `base`, the second changed as `change` says; where decoding stops. */
  function tail(change: (last: Buffer) => Buffer) {
    const first = encoded(0, 1).bytes;
    const last = change(Buffer.from(encoded(1, 1, encoded(0, 1).records[0]!.link.hash).bytes));
    const bytes = Buffer.concat([first, last]);
    return { bytes, decoded: decodeRecords(bytes, base), lastAt: base + first.length };
  }

  it('finds a whole last record with a byte changed since, at its file offsets', () => {
    const { bytes, decoded, lastAt } = tail((last) => {
      last[last.length - 5] = last[last.length - 5]! ^ 1;
      return last;
    });
    expect(decoded.end).toBe(lastAt);
    expect(damagedLastRecords(bytes, base, decoded.end)).toEqual([{ offset: lastAt, end: base + bytes.length }]);
  });

  it.each([
    ['payload', (record: number) => record + RECORD_HEADER_BYTES + 3],
    ['magic', (record: number) => record],
  ])('finds each of several whole last records whose %s changed, one after another', (_, at) => {
    const { bytes, records } = encoded(0, 4);
    const damaged = Buffer.from(bytes);
    for (const { offset } of records.slice(1)) damaged[at(offset)] = damaged[at(offset)]! ^ 1;
    const decoded = decodeRecords(damaged, base);

    expect(decoded.end).toBe(base + records[1]!.offset);
    expect(damagedLastRecords(damaged, base, decoded.end)).toEqual(
      records.slice(1).map(({ offset, end }) => ({ offset: base + offset, end: base + end })),
    );
  });

  /** Four records from file offset `base`, the last two changed as `changes` says (neither intact any more). */
  function lastTwo(changes: { third: (record: Buffer) => void; fourth: (record: Buffer) => void }) {
    const { bytes, records } = encoded(0, 4);
    const third = Buffer.from(bytes.subarray(records[2]!.offset, records[2]!.end));
    const fourth = Buffer.from(bytes.subarray(records[3]!.offset, records[3]!.end));
    changes.third(third);
    changes.fourth(fourth);
    const tail = Buffer.concat([bytes.subarray(0, records[2]!.offset), third, fourth]);
    const decoded = decodeRecords(tail, base);
    expect(decoded.end).toBe(base + records[2]!.offset);
    return {
      tail,
      decoded,
      spans: records.slice(2).map(({ offset, end }) => ({ offset: base + offset, end: base + end })),
    };
  }
  const lastTwoAt = (changes: Parameters<typeof lastTwo>[0]) => {
    const { tail, decoded } = lastTwo(changes);
    return [tail, base, decoded.end] as const;
  };
  const flipPayload = (record: Buffer) => {
    record[RECORD_HEADER_BYTES + 3] = record[RECORD_HEADER_BYTES + 3]! ^ 1;
  };

  it('leaves out a whole record a power loss left ending in zeros, before a damaged last one', () => {
    const { tail, decoded, spans } = lastTwo({
      third: (record) => record.fill(0, record.length - 7),
      fourth: flipPayload,
    });
    expect(damagedLastRecords(tail, base, decoded.end)).toEqual([spans[1]]);
  });

  it('finds nothing when the last byte is a zero a power loss left, even after a whole damaged record', () => {
    const { tail, decoded } = lastTwo({ third: flipPayload, fourth: (record) => record.fill(0, record.length - 1) });
    expect(damagedLastRecords(tail, base, decoded.end)).toBeUndefined();
  });

  it('finds nothing when a write a crash cut short after its first byte follows the damaged records', () => {
    const { tail, decoded, spans } = lastTwo({ third: flipPayload, fourth: flipPayload });
    expect(damagedLastRecords(tail, base, decoded.end)).toEqual(spans);
    const cut = Buffer.concat([tail, encoded(4, 1).bytes.subarray(0, 1)]);
    expect(damagedLastRecords(cut, base, decoded.end)).toBeUndefined();
  });

  it('finds nothing in a header of zeros a power loss left before a damaged record: zeros frame no record', () => {
    const { bytes, records } = encoded(0, 3);
    const last = Buffer.from(bytes.subarray(records[2]!.offset));
    flipPayload(last);
    const zeros = Buffer.alloc(RECORD_HEADER_BYTES);
    const damaged = Buffer.concat([bytes.subarray(0, records[2]!.offset), zeros, last]);
    expect(damagedLastRecords(damaged, base, base + records[2]!.offset)).toBeUndefined();
    const without = Buffer.concat([bytes.subarray(0, records[2]!.offset), last]);
    expect(damagedLastRecords(without, base, base + records[2]!.offset)).toHaveLength(1);
  });

  it('takes a record whose magic changed as whole only where its checksum proves its length', () => {
    const flipMagic = (record: Buffer) => {
      record[0] = record[0]! ^ 1;
    };
    expect(damagedLastRecords(...lastTwoAt({ third: flipPayload, fourth: flipMagic }))).toHaveLength(2);
    const both = (record: Buffer) => {
      flipMagic(record);
      flipPayload(record);
    };
    expect(damagedLastRecords(...lastTwoAt({ third: flipPayload, fourth: both }))).toBeUndefined();
  });

  it('takes a record whose magic and length changed as whole where its checksum proves an end, then the next', () => {
    const flipMagic = (record: Buffer) => {
      record[0] = record[0]! ^ 1;
    };
    const longer = (record: Buffer) => {
      flipMagic(record);
      record[6] = record[6]! ^ 1;
    };
    const { tail, decoded, spans } = lastTwo({ third: longer, fourth: flipMagic });
    expect(damagedLastRecords(tail, base, decoded.end)).toEqual(spans);
    // Its checksum changed too: nothing proves where it ends.
    const unproven = (record: Buffer) => {
      longer(record);
      record[8] = record[8]! ^ 1;
    };
    expect(damagedLastRecords(...lastTwoAt({ third: unproven, fourth: flipMagic }))).toBeUndefined();
    // Its magic intact (as a crash's prefix keeps it), its length changed: read as a torn write, not searched.
    const lengthOnly = (record: Buffer) => {
      record[6] = record[6]! ^ 1;
    };
    expect(damagedLastRecords(...lastTwoAt({ third: lengthOnly, fourth: flipMagic }))).toBeUndefined();
  });

  it.each([
    ['an intact last record', (last: Buffer) => last],
    ['a record cut short, as a crash leaves it', (last: Buffer) => last.subarray(0, last.length - 7)],
    ['a record whose end a power loss left as zeros', (last: Buffer) => last.fill(0, last.length - 7)],
    [
      'a whole frame with a valid checksum that is not a record of the log',
      () => Buffer.from(encodeRecords([{ event: { id: 'a/b' }, json: '{"id":"a/b"}' }], 1, null, WRITER).bytes),
    ],
    ['bytes that are not a frame', (last: Buffer) => Buffer.concat([garbage(1), last]).subarray(0, last.length)],
  ])('finds nothing after %s', (_, change) => {
    const { bytes, decoded } = tail(change);
    expect(damagedLastRecords(bytes, base, decoded.end)).toBeUndefined();
  });
});
