/**
 * `JSON.stringify` with Python `json.dumps` defaults: `", "` and `": "` separators and non-ASCII
 * escaped as `\uXXXX`. The reference builds tool-call arguments and default action summaries with
 * `json.dumps`, so matching it keeps those strings byte-identical across implementations.
 */
export function pythonJsonDumps(value: unknown): string {
  return write(value);
}

function write(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return escapeString(value);
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map((item) => write(item)).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    return `{${entries.map(([key, item]) => `${escapeString(key)}: ${write(item)}`).join(', ')}}`;
  }
  return 'null';
}

function formatNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return 'Infinity';
  if (value === Number.NEGATIVE_INFINITY) return '-Infinity';
  return JSON.stringify(value);
}

function escapeString(text: string): string {
  // JSON.stringify handles quotes, backslashes and control characters; Python additionally
  // escapes everything outside ASCII (surrogate pairs become two \uXXXX escapes, as in Python).
  return JSON.stringify(text).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
