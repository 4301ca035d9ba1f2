import { eventTimestamp } from '@x/events';

/**
 * A datetime from a query string (`timestamp__gte`, `timestamp__lt`, a socket's `after_timestamp`) as the
 * reference's pydantic `datetime` takes it, made what the reference compares with events' timestamps: naive
 * server-local time, in the events' own format (`YYYY-MM-DDTHH:MM:SS.ffffff`), so string order is time order.
 *
 * Taken: `YYYY-MM-DD[T| ]HH:MM[:SS[.fraction]]` with an optional zone (`Z`, `±HH`, `±HHMM`, `±HH:MM`), a bare
 * date (midnight), and Unix time (seconds, or milliseconds past 2e10). A zone-aware value is converted to local
 * time; a naive one is local as it is. A `+` left unencoded in a query arrives as a space (form encoding): a space
 * before the zone's digits is read as the `+` it was. Anything else, or a date that does not exist (February 30,
 * hour 24), is `undefined`: the caller refuses it, naming the field, where a string compare would answer wrongly.
 */
export function naiveLocalTimestamp(value: string): string | undefined {
  return naiveTimestamp(value, eventTimestamp);
}

/**
 * The same, made naive UTC: what the shell routes' events carry (`BashCommand`/`BashOutput` timestamps are the
 * reference's `utc_now()`), so a naive bound is UTC as it is and a zone-aware one is converted to UTC.
 */
export function naiveUtcTimestamp(value: string): string | undefined {
  return naiveTimestamp(value, (date) => date.toISOString().replace('Z', '000'));
}

/** `format`: an instant in the events' format (`…SS.ffffff`) in the wanted clock. */
function naiveTimestamp(value: string, format: (date: Date) => string): string | undefined {
  const text = value.trim();
  if (UNIX_TIME.test(text)) return unixTime(Number(text), format);
  const match = ISO_DATETIME.exec(text);
  if (match === null) return undefined;
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone] = match;
  if (!existingLocalTime([year, month, day, hour, minute, second].map(Number))) return undefined;
  const micros = fraction.padEnd(6, '0').slice(0, 6);
  const naive = `${year}-${month}-${day}T${hour}:${minute}:${second}`;
  if (zone === undefined) return `${naive}.${micros}`;
  const parsed = new Date(`${naive}${zoneSuffix(zone)}`);
  if (Number.isNaN(parsed.getTime())) return undefined;
  // Date keeps whole milliseconds only; keep the value's own sub-second digits instead.
  return `${format(parsed).slice(0, 19)}.${micros}`;
}

const UNIX_TIME = /^[+-]?\d+(?:\.\d+)?$/;
const ISO_DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?(Z|[+\- ]\d{2}(?::?\d{2})?)?$/i;

/** pydantic's rule: seconds up to 2e10 in magnitude, milliseconds beyond. */
function unixTime(value: number, format: (date: Date) => string): string | undefined {
  const ms = Math.abs(value) <= 2e10 ? value * 1000 : value;
  const date = new Date(Math.floor(ms));
  if (Number.isNaN(date.getTime())) return undefined;
  // Date keeps whole milliseconds: the microseconds below them are written from the value itself.
  const micros = Math.round((ms - Math.floor(ms)) * 1000);
  return `${format(date).slice(0, 23)}${String(micros).padStart(3, '0')}`;
}

function existingLocalTime([year, month, day, hour, minute, second]: readonly number[]): boolean {
  if (hour! > 23 || minute! > 59 || second! > 59 || month! < 1 || month! > 12 || day! < 1) return false;
  // The last day of the month: day 0 of the next.
  return day! <= new Date(Date.UTC(year!, month!, 0)).getUTCDate();
}

function zoneSuffix(zone: string): string {
  if (zone.toUpperCase() === 'Z') return 'Z';
  const sign = zone[0] === '-' ? '-' : '+';
  const digits = zone.slice(1).replace(':', '');
  return `${sign}${digits.slice(0, 2)}:${digits.slice(2) || '00'}`;
}
