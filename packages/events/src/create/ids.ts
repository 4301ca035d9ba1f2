/** A new event id: a lowercase hyphenated UUID v4, as the reference generates. */
export function newEventId(): string {
  // Web Crypto, so the package has no Node built-in and runs in browsers. `randomUUID` exists only in secure
  // contexts (https, localhost); a page served over plain http still has `getRandomValues`.
  const crypto = globalThis.crypto;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

let lastMicros = 0;

/** The local `YYYY-MM-DDTHH:MM:SS` of the last whole second formatted, and that second. */
const lastSecond = { epochSecond: Number.NaN, text: '' };

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

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
  const fraction = pad(((micros % 1_000_000) + 1_000_000) % 1_000_000, 6);
  // Local time to the second is the same all through one second (time zone offsets change on whole seconds),
  // and the local-time getters are the costly part: a conversation makes several events per millisecond.
  const epochSecond = Math.floor(micros / 1_000_000);
  if (epochSecond !== lastSecond.epochSecond) {
    const local = new Date(epochSecond * 1000);
    lastSecond.text =
      `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}` +
      `T${pad(local.getHours())}:${pad(local.getMinutes())}:${pad(local.getSeconds())}`;
    lastSecond.epochSecond = epochSecond;
  }
  return `${lastSecond.text}.${fraction}`;
}
