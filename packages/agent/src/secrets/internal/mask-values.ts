import { decodedRunSpans, encodings, type Span } from './decoded-runs.js';
import { dumpSpans } from './dump-view.js';
import { type PatternTarget, screenSources, secretPatterns, spelledFor } from './secret-patterns.js';
import { originalSpan, terminalView } from './terminal-view.js';

interface Matcher {
  /** The value as the target holds it (itself, or its UTF-8 bytes one per character). */
  literal: string;
  patterns: RegExp[];
}

/**
 * One regular expression matching the first characters of any form of any of `values` (`screenSources`): almost no
 * text holds one, and one pass over it (over each decoded run, where most bytes are noise) costs a fraction of a
 * pass per value and form. Where it matches, each of `values` is looked for in every form, one by one, so that every
 * match (overlapping ones too) is found.
 */
interface Screen {
  pattern: RegExp;
  values: Matcher[];
}

/** The values to hide, compiled once for one target (the text, or decoded bytes) and the levels below it. */
export interface CompiledValues {
  screens: Screen[];
  /** The values long enough to be looked for in decoded bytes, compiled for them; undefined if none is. */
  decoded: CompiledValues | undefined;
  /** The UTF-8 length of the shortest of `decoded`'s values: no form of any is shorter. */
  shortestDecodedBytes: number;
}

/**
 * The size a screen's source grows to before the next values go to another screen. V8 stops optimizing a regular
 * expression past about 20,000 characters of source, and a screen of 10 whole values (21,576 characters) then took
 * 3.5 ms over 2 KB instead of 2 µs (bench/masking.bench.ts).
 */
const screenSourceLimit = 8_000;

/** Compiled values by the values: masking runs on every observation, compiling them each time would dominate. */
const compiledCache = new Map<string, CompiledValues>();
const compiledCacheLimit = 64;

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
  return maskCompiled(text, compileValues(values), placeholder);
}

/** `maskValues` with values compiled by `compileValues`, for a caller that masks many texts with the same values. */
export function maskCompiled(text: string, compiled: CompiledValues | undefined, placeholder: string): string {
  if (compiled === undefined) return text;
  const spans = findSpans(text, compiled);
  const decoded = compiled.decoded;
  if (decoded !== undefined) {
    for (const span of dumpSpans(text, (bytes) => findSpans(bytes, decoded))) spans.push(span);
  }
  const view = terminalView(text);
  if (view !== undefined) {
    for (const span of findSpans(view.text, compiled)) spans.push(originalSpan(view, span));
  }
  return replaceSpans(text, spans, placeholder);
}

/** The values (duplicates and empty strings dropped) compiled for masking; undefined when none is left. */
export function compileValues(values: Iterable<string>): CompiledValues | undefined {
  const wanted = [...new Set(values)].filter((value) => value !== '');
  if (wanted.length === 0) return undefined;
  const key = wanted.join('\u0000');
  const cached = compiledCache.get(key);
  if (cached !== undefined) return cached;
  const compiled = compileFor(wanted, 'text', 0);
  if (compiledCache.size >= compiledCacheLimit) compiledCache.delete(compiledCache.keys().next().value as string);
  compiledCache.set(key, compiled);
  return compiled;
}

function compileFor(values: readonly string[], target: PatternTarget, depth: number): CompiledValues {
  const decodable = depth < maximumDepth ? values.filter((value) => byteLength(value) >= minimumDecodedLength) : [];
  return {
    screens: screensOf(values, target),
    decoded: decodable.length === 0 ? undefined : compileFor(decodable, 'bytes', depth + 1),
    shortestDecodedBytes: Math.min(...decodable.map(byteLength)),
  };
}

function byteLength(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

function screensOf(values: readonly string[], target: PatternTarget): Screen[] {
  const screens: Screen[] = [];
  let sources: string[] = [];
  let matchers: Matcher[] = [];
  let size = 0;
  const close = () => {
    if (matchers.length === 0) return;
    screens.push({ pattern: new RegExp(sources.join('|'), 'u'), values: matchers });
    [sources, matchers, size] = [[], [], 0];
  };
  for (const value of values) {
    const own = screenSources(value, target);
    const ownSize = own.reduce((total, source) => total + source.length + 1, 0);
    if (size + ownSize > screenSourceLimit) close();
    sources.push(...own);
    size += ownSize;
    matchers.push({ literal: spelledFor(value, target), patterns: secretPatterns(value, target) });
  }
  close();
  return screens;
}

function findSpans(text: string, compiled: CompiledValues): Span[] {
  const spans: Span[] = [];
  for (const screen of compiled.screens) {
    if (!screen.pattern.test(text)) continue;
    for (const { literal, patterns } of screen.values) {
      for (let at = text.indexOf(literal); at !== -1; at = text.indexOf(literal, at + 1)) {
        spans.push([at, at + literal.length]);
      }
      for (const pattern of patterns) collectMatches(text, literal, pattern, spans);
    }
  }
  const decoded = compiled.decoded;
  if (decoded === undefined) return spans;
  const find = (bytes: string) => findSpans(bytes, decoded);
  for (const encoding of encodings) {
    const found = decodedRunSpans(text, { encoding, find, shortestBytes: compiled.shortestDecodedBytes });
    for (const span of found) spans.push(span);
  }
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
