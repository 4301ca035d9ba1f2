import type { Colors } from './colors.js';
import { terminalText } from './terminal-safe.js';

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const HIDDEN = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'v']);

function colorFor(level: number, c: Colors): (text: string) => string {
  if (level >= 50) return c.red;
  if (level >= 40) return c.yellow;
  if (level >= 30) return c.green;
  return c.dim;
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return /\s/.test(value) ? JSON.stringify(value) : terminalText(value);
  return terminalText(JSON.stringify(value) ?? String(value));
}

/**
 * One JSON log line of the server (pino) as a line for people: `12:03:04 INFO  message key=value …`.
 * A line that is not a JSON object is returned as is; control characters are spelled out either way.
 */
export function prettyLogLine(line: string, c: Colors): string {
  let record: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return terminalText(line);
    record = parsed as Record<string, unknown>;
  } catch {
    return terminalText(line);
  }
  const level = typeof record.level === 'number' ? record.level : 30;
  const time = typeof record.time === 'number' ? new Date(record.time).toTimeString().slice(0, 8) : '';
  const name = (LEVELS[level] ?? String(level)).padEnd(5);
  const fields = Object.entries(record)
    .filter(([key]) => !HIDDEN.has(key))
    .map(([key, value]) => `${c.dim(`${key}=`)}${valueText(value)}`);
  const message = typeof record.msg === 'string' ? terminalText(record.msg) : '';
  return [c.dim(time), colorFor(level, c)(name), message, ...fields].filter((part) => part !== '').join(' ');
}

/** A log stream for the server that writes each JSON record as a pretty line. */
export function createPrettyLogStream(write: (text: string) => void, colors: Colors): { write(message: string): void } {
  return {
    write(message: string) {
      for (const line of message.split('\n')) if (line.trim() !== '') write(`${prettyLogLine(line, colors)}\n`);
    },
  };
}
