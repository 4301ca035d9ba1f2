import { randomUUID } from 'node:crypto';

/** A new event id: a lowercase hyphenated UUID v4, as the reference generates. */
export function newEventId(): string {
  return randomUUID();
}

let lastMicros = 0;

/**
 * A timestamp in the reference's format: local wall-clock time, naive, with six-digit
 * microseconds (`YYYY-MM-DDTHH:MM:SS.ffffff`). Timestamps are compared as strings by the server
 * and clients, so timestamps made by one process for "now" are strictly increasing: JavaScript
 * clocks have millisecond precision, and the microsecond digits count events within a millisecond.
 */
export function eventTimestamp(date?: Date): string {
  let micros: number;
  if (date === undefined) {
    micros = Date.now() * 1000;
    if (micros <= lastMicros) micros = lastMicros + 1;
    lastMicros = micros;
  } else {
    micros = date.getTime() * 1000;
  }
  const local = new Date(Math.floor(micros / 1000));
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const fraction = pad(((micros % 1_000_000) + 1_000_000) % 1_000_000, 6);
  return (
    `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}` +
    `T${pad(local.getHours())}:${pad(local.getMinutes())}:${pad(local.getSeconds())}.${fraction}`
  );
}
