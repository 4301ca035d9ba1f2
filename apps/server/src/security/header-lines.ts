import type { IncomingHttpHeaders } from 'node:http';

/**
 * Every value a request gave a header, one per field line and per comma-separated item, trimmed: from Node's
 * `rawHeaders` (name, value, name, value...) when known, else from `headers`. Node joins a repeated field's lines with
 * ", " (and keeps only the first of some, Authorization among them), so a check that reads `headers` alone judges one
 * value where a client sent several, and a proxy in front may act on another.
 */
export function headerItems(
  headers: IncomingHttpHeaders,
  name: string,
  rawHeaders: readonly string[] | undefined,
): string[] {
  const lines = rawHeaders === undefined ? [headers[name]].flat() : headerLines(rawHeaders, name);
  return lines
    .flatMap((line) => (line === undefined ? [] : line.split(',')))
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** The values of a header's field lines, in order, from Node's `rawHeaders` (names matched case-insensitively). */
export function headerLines(rawHeaders: readonly string[], name: string): string[] {
  const lines: string[] = [];
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    if (rawHeaders[index]?.toLowerCase() === name) lines.push(rawHeaders[index + 1] ?? '');
  }
  return lines;
}
