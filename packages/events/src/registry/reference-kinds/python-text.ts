/**
 * Python string behaviours the reference's renderings depend on, where JavaScript's differ.
 */

/** Python's `str.splitlines()` line boundaries besides `\r\n` (one boundary): LF, CR, VT, FF, FS, GS, RS, NEL, LS, PS. */
const lineBoundaries = new Set([0x0a, 0x0d, 0x0b, 0x0c, 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029]);

/** `len(text.splitlines())`: a trailing line break does not start another line; `""` has none. */
export function pythonLineCount(text: string): number {
  let lines = 0;
  let lineOpen = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!lineBoundaries.has(code)) {
      lineOpen = true;
      continue;
    }
    if (code === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
    lines++;
    lineOpen = false;
  }
  return lineOpen ? lines + 1 : lines;
}

/**
 * `str(PurePosixPath(directory) / name)`: repeated and trailing slashes and `.` segments collapse (`..` stays), a
 * leading `//` (exactly two) is kept, an empty directory means the current one.
 */
export function pythonPosixJoin(directory: string, name: string): string {
  const leading =
    directory.startsWith('//') && !directory.startsWith('///') ? '//' : directory.startsWith('/') ? '/' : '';
  const segments = directory.split('/').filter((segment) => segment !== '' && segment !== '.');
  return leading + [...segments, name].join('/');
}

const surrogate = /[\uD800-\uDFFF]/;

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * `len(text)`: Python counts code points, so a character outside the Basic Multilingual Plane (an emoji) counts
 * once where JavaScript's `length` counts its two UTF-16 halves. A lone surrogate counts once, as in Python.
 */
export function pythonLength(text: string): number {
  if (!surrogate.test(text)) return text.length;
  let count = 0;
  for (let index = 0; index < text.length; index++, count++) {
    if (isHigh(text.charCodeAt(index)) && isLow(text.charCodeAt(index + 1))) index++;
  }
  return count;
}

/** `text[:count]`, counting code points as Python does (never splitting a surrogate pair). */
export function pythonHead(text: string, count: number): string {
  if (count <= 0) return '';
  if (!surrogate.test(text)) return text.slice(0, count);
  let index = 0;
  for (let taken = 0; index < text.length && taken < count; index++, taken++) {
    if (isHigh(text.charCodeAt(index)) && isLow(text.charCodeAt(index + 1))) index++;
  }
  return text.slice(0, index);
}

/** `text[-count:]` for a positive count (`""` otherwise), counting code points as Python does. */
export function pythonTail(text: string, count: number): string {
  if (count <= 0) return '';
  if (!surrogate.test(text)) return text.slice(Math.max(0, text.length - count));
  let index = text.length;
  for (let taken = 0; index > 0 && taken < count; index--, taken++) {
    if (isLow(text.charCodeAt(index - 1)) && isHigh(text.charCodeAt(index - 2))) index--;
  }
  return text.slice(index);
}

/**
 * The characters Python's `str.strip()` removes (`str.isspace()`): JavaScript's `trim()` also removes U+FEFF, which
 * Python keeps, and keeps the separators U+001C–U+001F and NEL (U+0085), which Python removes.
 */
const pythonSpace = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const pythonStripPattern = new RegExp(`^[${pythonSpace}]+|[${pythonSpace}]+$`, 'g');
const pythonBlankPattern = new RegExp(`^[${pythonSpace}]*$`);

/** `text.strip()`. */
export function pythonStrip(text: string): string {
  return text.replace(pythonStripPattern, '');
}

/** `text.strip() == ""`. */
export function pythonIsBlank(text: string): boolean {
  return pythonBlankPattern.test(text);
}
