import { decodedRunSpans, encodings, type Span } from './decoded-runs.js';
import { type PatternTarget, secretPatterns, spelledFor } from './secret-patterns.js';
import { originalSpan, terminalView } from './terminal-view.js';

interface Matcher {
  /** The value as the target holds it (itself, or its UTF-8 bytes one per character). */
  literal: string;
  patterns: RegExp[];
}

/** Compiled patterns by value: masking runs on every observation, compiling them each time would dominate. */
const matcherCache = new Map<string, Matcher>();
const matcherCacheLimit = 512;

/**
 * How many encodings deep a value is looked for: the base64 of `user:password` (1), the base64 of the value's
 * percent-encoding (1, the form is found in the bytes), base64 of base64 or hex of base64 (2). Each level decodes
 * what the last one decoded, at most 4 ways, so the work stays a small multiple of the text's length.
 */
const maximumDepth = 2;

/** Values shorter than this (in UTF-8 bytes) are not looked for inside decoded data, where any byte can occur. */
const minimumDecodedLength = 3;

/**
 * Replaces every occurrence of the values, and of their common encodings, with `placeholder`:
 * - the literal value, and its percent, hex and JSON-escaped forms (`secretPatterns`);
 * - every base64 or hex run whose decoded bytes hold one of those, whole (`decodedRunSpans`);
 * - all of these also in the text as a terminal shows it (`terminalView`), where colour codes or zero-width
 *   characters between the value's characters are gone; the span hidden then covers them.
 * All matches are found in the original text first and overlapping or touching matches merge into one placeholder,
 * so a value containing another is hidden whole, two overlapping values (or a literal next to an encoded form)
 * leave no tail behind, and the placeholder itself is never matched by a later value.
 */
export function maskValues(text: string, values: Iterable<string>, placeholder: string): string {
  const wanted = [...new Set(values)].filter((value) => value !== '');
  if (wanted.length === 0) return text;
  const spans = findSpans(text, wanted, 'text', 0);
  const view = terminalView(text);
  if (view !== undefined) {
    for (const span of findSpans(view.text, wanted, 'text', 0)) spans.push(originalSpan(view, span));
  }
  return replaceSpans(text, spans, placeholder);
}

function findSpans(text: string, values: readonly string[], target: PatternTarget, depth: number): Span[] {
  const spans: Span[] = [];
  for (const value of screenOf(values, target).test(text) ? values : []) {
    const { literal, patterns } = matcherOf(value, target);
    for (let at = text.indexOf(literal); at !== -1; at = text.indexOf(literal, at + 1)) {
      spans.push([at, at + literal.length]);
    }
    for (const pattern of patterns) collectMatches(text, literal, pattern, spans);
  }
  if (depth >= maximumDepth) return spans;
  const decodable = values.filter((value) => Buffer.byteLength(value) >= minimumDecodedLength);
  if (decodable.length === 0) return spans;
  const find = (bytes: string) => findSpans(bytes, decodable, 'bytes', depth + 1);
  for (const encoding of encodings) spans.push(...decodedRunSpans(text, { encoding, find }));
  return spans;
}

/** Every match of `pattern`, overlapping ones included; a match that is the literal value is the literal rule's. */
function collectMatches(text: string, literal: string, pattern: RegExp, spans: Span[]): void {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (match[0] !== literal && match[0] !== '') spans.push([match.index, match.index + match[0].length]);
    pattern.lastIndex = match.index + 1;
  }
}

/**
 * One regular expression matching any form of any of the values: almost no text holds one, and one pass over it
 * (over each decoded run, where most bytes are noise) costs a fraction of a pass per value and form. Where it
 * matches, each value's forms are looked for one by one, so that every match (overlapping ones too) is found.
 */
const screenCache = new Map<string, RegExp>();

function screenOf(values: readonly string[], target: PatternTarget): RegExp {
  const key = `${target}\u0000${values.join('\u0000')}`;
  const cached = screenCache.get(key);
  if (cached !== undefined) return cached;
  // The percent form matches the literal value too.
  const sources = values.flatMap((value) => matcherOf(value, target).patterns.map((pattern) => pattern.source));
  const screen = new RegExp(sources.join('|'), 'u');
  if (screenCache.size >= matcherCacheLimit) screenCache.delete(screenCache.keys().next().value as string);
  screenCache.set(key, screen);
  return screen;
}

function matcherOf(value: string, target: PatternTarget): Matcher {
  const key = `${target}:${value}`;
  const cached = matcherCache.get(key);
  if (cached !== undefined) return cached;
  const matcher = { literal: spelledFor(value, target), patterns: secretPatterns(value, target) };
  if (matcherCache.size >= matcherCacheLimit) matcherCache.delete(matcherCache.keys().next().value as string);
  matcherCache.set(key, matcher);
  return matcher;
}

function replaceSpans(text: string, spans: Span[], placeholder: string): string {
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let masked = '';
  let cursor = 0;
  let [start, end] = spans[0] as Span;
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
