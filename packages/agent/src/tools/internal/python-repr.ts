/**
 * Python `repr()` of JSON-like values, for error texts that the reference builds with `{value!r}` or by formatting
 * a list (`"Available: ['a', 'b']"`). JSON numbers lose the int/float distinction, so `1.0` prints as `1`.
 */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return pythonStringRepr(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : value > 0 ? 'inf' : '-inf';
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value).map(([key, child]) => `${pythonStringRepr(key)}: ${pythonRepr(child)}`);
    return `{${entries.join(', ')}}`;
  }
  return String(value);
}

/** Python `str()`: strings as they are, everything else as its repr. */
export function pythonStr(value: unknown): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}

const namedEscapes: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function pythonStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const named = namedEscapes[char];
    const code = char.codePointAt(0)!;
    if (named !== undefined) out += named;
    else if (char === quote) out += `\\${quote}`;
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += char;
  }
  return out + quote;
}
