import { eventTimestamp } from '@x/events';
import { describe, expect, it } from 'vitest';
import { naiveLocalTimestamp, naiveUtcTimestamp } from './query-datetime.js';

/** The events' format of a UTC instant, in this machine's local time. */
const localOf = (utcMs: number, micros = '000000') => `${eventTimestamp(new Date(utcMs)).slice(0, 19)}.${micros}`;

describe('naiveLocalTimestamp: a query datetime as pydantic takes it, in the events’ own format', () => {
  it('keeps a naive datetime as local time, in the events’ format whatever its spelling', () => {
    expect(naiveLocalTimestamp('2024-01-01T10:00:03')).toBe('2024-01-01T10:00:03.000000');
    expect(naiveLocalTimestamp('2024-01-01 10:00:03')).toBe('2024-01-01T10:00:03.000000');
    expect(naiveLocalTimestamp('2024-01-01t10:00')).toBe('2024-01-01T10:00:00.000000');
    expect(naiveLocalTimestamp(' 2024-01-01T10:00:03.5 ')).toBe('2024-01-01T10:00:03.500000');
    expect(naiveLocalTimestamp('2024-01-01T10:00:03,25')).toBe('2024-01-01T10:00:03.250000');
    expect(naiveLocalTimestamp('2024-01-01T10:00:03.1234567')).toBe('2024-01-01T10:00:03.123456');
    expect(naiveLocalTimestamp('2024-02-29')).toBe('2024-02-29T00:00:00.000000');
  });

  it('converts a zone-aware datetime to local time, keeping its sub-second digits', () => {
    const instant = Date.UTC(2024, 0, 1, 10, 0, 3);
    expect(naiveLocalTimestamp('2024-01-01T10:00:03Z')).toBe(localOf(instant));
    expect(naiveLocalTimestamp('2024-01-01T12:00:03+02:00')).toBe(localOf(instant));
    expect(naiveLocalTimestamp('2024-01-01T12:00:03+0200')).toBe(localOf(instant));
    expect(naiveLocalTimestamp('2024-01-01T12:00:03+02')).toBe(localOf(instant));
    expect(naiveLocalTimestamp('2024-01-01T05:30:03-04:30')).toBe(localOf(instant));
    expect(naiveLocalTimestamp('2024-01-01T10:00:03.123456789z')).toBe(localOf(instant, '123456'));
  });

  it('reads a space before the zone as the + a query string turned into it', () => {
    const plus = new URLSearchParams('t=2024-01-01T12:00:03+02:00').get('t')!;
    expect(plus).toBe('2024-01-01T12:00:03 02:00');
    expect(naiveLocalTimestamp(plus)).toBe(localOf(Date.UTC(2024, 0, 1, 10, 0, 3)));
  });

  it('takes Unix time in seconds, or in milliseconds past 2e10', () => {
    expect(naiveLocalTimestamp('1704103203')).toBe(localOf(1704103203000));
    expect(naiveLocalTimestamp('1704103203.25')).toBe(localOf(1704103203000, '250000'));
    expect(naiveLocalTimestamp('1704103203123')).toBe(localOf(1704103203123, '123000'));
  });

  it('refuses what is no datetime, or a date or time that does not exist', () => {
    for (const value of [
      '',
      'yesterday',
      '2024-01-01T',
      '2024-1-1',
      '2024-02-30',
      '2023-02-29',
      '2024-13-01',
      '2024-00-10',
      '2024-01-00',
      '2024-01-01T24:00',
      '2024-01-01T10:60',
      '2024-01-01T10:00:60',
      '2024-01-01T10:00:03+2',
      '2024-01-01T10:00:03 UTC',
      '10:00:03',
    ]) {
      expect({ value, parsed: naiveLocalTimestamp(value) }).toEqual({ value, parsed: undefined });
    }
  });
});

describe('naiveUtcTimestamp: the same, in UTC (the shell events’ clock)', () => {
  it('keeps a naive bound as UTC and converts a zone-aware one to UTC', () => {
    expect(naiveUtcTimestamp('2024-01-01 10:00:03.5')).toBe('2024-01-01T10:00:03.500000');
    expect(naiveUtcTimestamp('2024-01-01T12:00:03.25+02:00')).toBe('2024-01-01T10:00:03.250000');
    expect(naiveUtcTimestamp('2024-01-01T00:30:00-01:00')).toBe('2024-01-01T01:30:00.000000');
    expect(naiveUtcTimestamp('1704103203')).toBe('2024-01-01T10:00:03.000000');
    expect(naiveUtcTimestamp('2024-01-01T10:00:03 UTC')).toBeUndefined();
  });
});
