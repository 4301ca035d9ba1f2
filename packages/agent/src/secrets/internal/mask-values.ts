import { secretPatterns } from './secret-patterns.js';

/** Compiled patterns by value: masking runs on every observation, compiling them each time would dominate. */
const patternCache = new Map<string, RegExp[]>();
const patternCacheLimit = 256;

/**
 * Replaces every occurrence of the values, and of their common encodings (see `secretPatterns`), with
 * `placeholder`. All matches are found in the original text first and overlapping or touching matches merge into
 * one placeholder, so a value containing another is hidden whole, two overlapping values (or a literal next to an
 * encoded form) leave no tail behind, and the placeholder itself is never matched by a later value.
 */
export function maskValues(text: string, values: Iterable<string>, placeholder: string): string {
  const spans: Array<[number, number]> = [];
  for (const value of values) {
    if (value === '') continue;
    for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1)) {
      spans.push([at, at + value.length]);
    }
    for (const pattern of patternsOf(value)) collectMatches(text, value, pattern, spans);
  }
  return replaceSpans(text, spans, placeholder);
}

/** Every match of `pattern`, overlapping ones included; a match that is the literal value is the literal rule's. */
function collectMatches(text: string, value: string, pattern: RegExp, spans: Array<[number, number]>): void {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (match[0] !== value && match[0] !== '') spans.push([match.index, match.index + match[0].length]);
    pattern.lastIndex = match.index + 1;
  }
}

function patternsOf(value: string): RegExp[] {
  const cached = patternCache.get(value);
  if (cached !== undefined) return cached;
  const patterns = secretPatterns(value);
  if (patternCache.size >= patternCacheLimit) patternCache.delete(patternCache.keys().next().value as string);
  patternCache.set(value, patterns);
  return patterns;
}

function replaceSpans(text: string, spans: Array<[number, number]>, placeholder: string): string {
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let masked = '';
  let cursor = 0;
  let [start, end] = spans[0] as [number, number];
  for (const [spanStart, spanEnd] of spans) {
    if (spanStart <= end) {
      end = Math.max(end, spanEnd);
      continue;
    }
    masked += text.slice(cursor, start) + placeholder;
    cursor = end;
    [start, end] = [spanStart, spanEnd];
  }
  return masked + text.slice(cursor, start) + placeholder + text.slice(end);
}
