/** Lines of a long text: the first `head` and last `tail`, with a note for what is left out. */
export interface TruncatedLines {
  head: string[];
  /** Number of lines left out between head and tail (0 = nothing left out). */
  omitted: number;
  tail: string[];
}

export interface TruncateOptions {
  head?: number;
  tail?: number;
  /** Longer lines are cut with "…". */
  maxLineLength?: number;
}

/**
 * Keeps the beginning and the end of a long text, where the interesting parts of command output usually
 * are. A text that would lose fewer than three lines is kept whole, so the note never hides one line.
 */
export function truncateLines(text: string, options: TruncateOptions = {}): TruncatedLines {
  const head = options.head ?? 12;
  const tail = options.tail ?? 6;
  const max = options.maxLineLength ?? 400;
  const lines = text
    .replace(/\r\n/g, '\n')
    .replace(/\n+$/, '')
    .split('\n')
    .map((line) => cutLine(line, max));
  if (lines.length <= head + tail + 2) return { head: lines, omitted: 0, tail: [] };
  return { head: lines.slice(0, head), omitted: lines.length - head - tail, tail: lines.slice(lines.length - tail) };
}

/** One line: whitespace collapsed, cut at `max` characters with "…". */
export function oneLine(text: string, max = 120): string {
  return cutLine(text.replace(/\s+/g, ' ').trim(), max);
}

function cutLine(line: string, max: number): string {
  if (line.length <= max) return line;
  return `${line.slice(0, Math.max(1, max - 1))}…`;
}

/** `1234567` → `1,234,567`. */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** Milliseconds → `850ms`, `12.3s`, `4m 05s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  return `${minutes}m ${String(seconds).padStart(2, '0')}s`;
}
