import { crc32 } from 'node:zlib';
import { type AnyEvent, eventParserVersion, parseEventJson, serializeEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { eventFileName } from '../src/event-log/file-names.js';
import {
  decodePack,
  encodedPackElement,
  encodePack,
  PACK_FORMAT,
  PACK_VERSION,
  type PackExpectation,
  packHeaderOf,
} from '../src/event-log/pack-format.js';
import { userMessageEvent } from './helpers/events.js';

/**
 * The pack file format on its own (`pack-format.ts`): what `encodePack` writes, and every reason `decodePack`
 * gives for not using a pack. A reader falls back to the event files on any problem, so each check is only seen
 * through its problem text here.
 */

const START = 8;

function eventsAt(count: number): { events: AnyEvent[]; names: string[] } {
  const events = Array.from({ length: count }, (_, k) => userMessageEvent(`event ${START + k}`));
  return { events, names: events.map((event, k) => eventFileName(START + k, event.id)) };
}

function expectation(names: readonly string[], overrides: Partial<PackExpectation> = {}): PackExpectation {
  return {
    start: START,
    maxCount: names.length,
    nameAt: (index) => names[index - START] ?? `event-${index}-unknown.json`,
    location: 'test pack',
    ...overrides,
  };
}

/** A pack written by hand: `header` (crc32 filled in from `body` unless given) and `body` as they are. */
function handPack(header: Record<string, unknown>, body: string): Buffer {
  const full = { format: PACK_FORMAT, v: PACK_VERSION, parser: eventParserVersion(), crc32: crc32(body), ...header };
  return Buffer.from(`${JSON.stringify(full)}\n${body}`, 'utf8');
}

function problemOf(data: Uint8Array | string, expected: PackExpectation): string {
  const decoded = decodePack(data, expected);
  if (!('problem' in decoded)) throw new Error('the pack was accepted');
  return decoded.problem;
}

describe('encodePack', () => {
  it('writes a header line naming the chunk, then the events as one JSON array whose crc32 it records', () => {
    const { events, names } = eventsAt(3);
    const pack = encodePack({ start: START, names, events });
    const newline = pack.indexOf(10);
    const header = JSON.parse(pack.toString('utf8', 0, newline));
    const body = pack.subarray(newline + 1);
    expect(header).toEqual({
      format: PACK_FORMAT,
      v: PACK_VERSION,
      start: START,
      count: 3,
      parser: eventParserVersion(),
      names,
      crc32: crc32(body),
    });
    expect(body.toString('utf8')).toBe(`[${events.map(serializeEvent).join(',')}]`);
    expect(packHeaderOf(pack)).toEqual({ start: START, names, body });
  });

  it('gives the same bytes whichever elements come as encoded bytes (runs of either, at either end)', () => {
    const { events, names } = eventsAt(5);
    const plain = encodePack({ start: START, names, events });
    const bytes = events.map((event) => Buffer.from(serializeEvent(event), 'utf8'));
    const patterns = [
      [true, true, true, true, true],
      [false, false, false, false, false],
      [true, false, false, true, true],
      [false, true, true, false, false],
      [true, false, true, false, true],
      [false, false, false, false, true],
    ];
    for (const pattern of patterns) {
      const encoded = pattern.map((given, k) => (given ? bytes[k] : undefined));
      expect(encodePack({ start: START, names, events, encoded }).equals(plain), String(pattern)).toBe(true);
    }
  });

  it('keeps a non-canonical stored text as a JSON string, and decodes it back to the same event and bytes', () => {
    const created = userMessageEvent('spaced');
    const spaced = JSON.stringify(JSON.parse(serializeEvent(created)), null, 2);
    const parsed = parseEventJson(spaced);
    expect(encodedPackElement(parsed)).toBe(false);
    expect(encodedPackElement(created)).toBe(true);
    const events = [created, parsed];
    const names = events.map((event, k) => eventFileName(START + k, event.id));
    const pack = encodePack({ start: START, names, events });
    const body = packHeaderOf(pack)!.body.toString('utf8');
    expect(JSON.parse(body)).toEqual([JSON.parse(serializeEvent(created)), spaced]);
    const decoded = decodePack(pack, expectation(names));
    if ('problem' in decoded) throw new Error(decoded.problem);
    expect(decoded.events).toEqual(events);
    expect(decoded.events.map(serializeEvent)).toEqual([serializeEvent(created), spaced]);
  });
});

describe('decodePack', () => {
  it('decodes a pack given as bytes, as a view into a larger buffer, or as text, to equal frozen events', () => {
    const { events, names } = eventsAt(4);
    const pack = encodePack({ start: START, names, events });
    const padded = Buffer.concat([Buffer.from('xx'), pack, Buffer.from('yy')]);
    for (const data of [pack, padded.subarray(2, 2 + pack.length), pack.toString('utf8')]) {
      const decoded = decodePack(data, expectation(names));
      if ('problem' in decoded) throw new Error(decoded.problem);
      expect(decoded.events).toEqual(events);
      expect(decoded.events.map(serializeEvent)).toEqual(events.map(serializeEvent));
      expect(decoded.events.every((event) => Object.isFrozen(event))).toBe(true);
    }
  });

  it('accepts a pack of exactly as many events as the log has there, and a prefix of them', () => {
    const { events, names } = eventsAt(4);
    const full = decodePack(encodePack({ start: START, names, events }), expectation(names));
    expect('events' in full && full.events.length).toBe(4);
    const prefix = decodePack(
      encodePack({ start: START, names: names.slice(0, 2), events: events.slice(0, 2) }),
      expectation(names),
    );
    expect('events' in prefix && prefix.events).toEqual(events.slice(0, 2));
  });

  it('refuses a pack of another chunk, of no events, or of more events than the log has there', () => {
    const { events, names } = eventsAt(4);
    const pack = encodePack({ start: START, names, events });
    expect(problemOf(pack, expectation(names, { start: START + 4 }))).toBe('another chunk');
    expect(problemOf(pack, expectation(names, { maxCount: 3 }))).toBe('it holds 4 events, more than the log has');
    const empty = encodePack({ start: START, names: [], events: [] });
    expect(problemOf(empty, expectation(names))).toBe('it holds 0 events, more than the log has');
  });

  it('refuses a pack whose names disagree with the log, naming the first index that does (the last too)', () => {
    const { events, names } = eventsAt(4);
    const pack = encodePack({ start: START, names, events });
    for (const k of [0, 2, 3]) {
      const log = names.map((name, at) => (at === k ? eventFileName(START + at, 'other-id') : name));
      expect(problemOf(pack, expectation(log))).toBe(`its names disagree with the log at index ${START + k}`);
    }
  });

  it('refuses a damaged header: each problem named', () => {
    const { events, names } = eventsAt(2);
    const body = `[${events.map(serializeEvent).join(',')}]`;
    const valid = { start: START, count: 2, names };
    const cases: [string, Buffer | string][] = [
      ['no header line (truncated?)', JSON.stringify({ ...valid, format: PACK_FORMAT })],
      ['its header is not JSON', `{"format":\n${body}`],
      ['its header is not an object', `null\n${body}`],
      ['its header is not an object', `7\n${body}`],
      ['another format or version', handPack({ ...valid, format: 'x-other' }, body)],
      ['another format or version', handPack({ ...valid, v: PACK_VERSION + 1 }, body)],
      [
        'written by another parser (@x/events@0.0.0-other)',
        handPack({ ...valid, parser: '@x/events@0.0.0-other' }, body),
      ],
      ['its header is incomplete', handPack({ ...valid, start: 1.5 }, body)],
      ['its header is incomplete', handPack({ ...valid, start: '8' }, body)],
      ['its header is incomplete', handPack({ ...valid, names: 'not a list' }, body)],
      ['its header is incomplete', handPack({ ...valid, count: 3 }, body)],
      ['its header is incomplete', handPack({ ...valid, count: 1 }, body)],
      ['its header is incomplete', handPack({ ...valid, crc32: String(crc32(body)) }, body)],
      ['its header is incomplete', handPack({ ...valid, names: [names[0], 42] }, body)],
      ['its checksum does not match (corrupt or truncated)', handPack({ ...valid, crc32: crc32(body) ^ 1 }, body)],
      ['its checksum does not match (corrupt or truncated)', handPack(valid, body).subarray(0, -1)],
    ];
    for (const [problem, data] of cases) {
      expect(problemOf(data, expectation(names)), problem).toBe(problem);
      if (typeof data !== 'string') expect(packHeaderOf(data)).toBeUndefined();
    }
    // The hand-made pack with nothing wrong is accepted (so each case above fails for its own reason).
    const decoded = decodePack(handPack(valid, body), expectation(names));
    expect('events' in decoded && decoded.events).toEqual(events);
  });

  it('refuses a body that is not one event per name, each with the id its name says', () => {
    const { events, names } = eventsAt(2);
    const [first, second] = events.map(serializeEvent);
    const header = { start: START, count: 2, names };
    const cases: [string, string][] = [
      ['its body is not JSON', `[${first},`],
      ['its body does not hold one event per name', `{"0":${first},"1":${second}}`],
      ['its body does not hold one event per name', `[${first}]`],
      ['its body does not hold one event per name', `[${first},${second},${second}]`],
      ['element 1: not an event', `[${first},null]`],
      ['element 1: not an event', `[${first},12]`],
      ['element 0: not an event', `[[${first}],${second}]`],
      [`element 1: id '${events[0]!.id}' where the name says '${events[1]!.id}'`, `[${first},${first}]`],
      [`element 0: id 'undefined' where the name says '${events[0]!.id}'`, `[{"kind":"MessageEvent"},${second}]`],
    ];
    for (const [problem, body] of cases) {
      expect(problemOf(handPack(header, body), expectation(names)), problem).toBe(problem);
    }
    // An element kept as text is parsed and checked like an event file: damaged, or of another id.
    const asText = problemOf(handPack(header, `[${first},${JSON.stringify(first)}]`), expectation(names));
    expect(asText).toContain('element 1: ');
    expect(asText).toContain(`test pack (${names[1]})`);
    expect(asText).toContain(`its name says id '${events[1]!.id}'`);
    const broken = problemOf(handPack(header, `[${JSON.stringify('{"id":')},${second}]`), expectation(names));
    expect(broken).toContain(`element 0: `);
    expect(broken).toContain(`test pack (${names[0]})`);
  });
});
