import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { eventTimestamp, newEventId } from './ids.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newEventId', () => {
  afterEach(() => {
    delete (globalThis.crypto as { randomUUID?: unknown }).randomUUID;
  });

  it('is a lowercase UUID v4 from Web Crypto', () => {
    expect(newEventId()).toMatch(UUID_V4);
  });

  it('makes one from getRandomValues where randomUUID is missing (a page served over plain http)', () => {
    // An own property shadows the prototype's method, as in an insecure browser context.
    Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
    const ids = new Set(Array.from({ length: 200 }, () => newEventId()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(UUID_V4);
  });
});

/** The format computed in full for every call, as `eventTimestamp` did before it kept the last second. */
function fullTimestamp(date: Date): string {
  const micros = date.getTime() * 1000;
  const local = new Date(Math.floor(micros / 1000));
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const fraction = pad(((micros % 1_000_000) + 1_000_000) % 1_000_000, 6);
  return (
    `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}` +
    `T${pad(local.getHours())}:${pad(local.getMinutes())}:${pad(local.getSeconds())}.${fraction}`
  );
}

describe('eventTimestamp', () => {
  it('formats any date as the full computation does, the same second asked again or not', () => {
    const base = fc.integer({ min: -2_000_000_000_000, max: 4_000_000_000_000 });
    fc.assert(
      fc.property(base, fc.array(fc.integer({ min: -1500, max: 1500 }), { maxLength: 6 }), (start, offsets) => {
        for (const millis of [start, ...offsets.map((offset) => start + offset)]) {
          expect(eventTimestamp(new Date(millis))).toBe(fullTimestamp(new Date(millis)));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('is strictly increasing for "now", in the reference format', () => {
    const stamps = Array.from({ length: 2000 }, () => eventTimestamp());
    for (let index = 1; index < stamps.length; index++) expect(stamps[index]! > stamps[index - 1]!).toBe(true);
    for (const stamp of stamps) expect(stamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/);
  });
});
