/**
 * Applies `mask` to every string inside a JSON-like value (objects, arrays, nested), leaving the `kind` and `type`
 * discriminators alone. Tools put their output in more fields than `content` (a file editor's old and new
 * content, a command line, MCP structured results), and every one of them is stored in the event.
 */
export function maskStrings<T>(value: T, mask: (text: string) => string): T {
  return maskAny(value, mask) as T;
}

/** Keys whose value picks a schema (`kind` of an observation, `type` of a content part), never output. */
const discriminators = new Set(['kind', 'type']);

function maskAny(value: unknown, mask: (text: string) => string): unknown {
  if (typeof value === 'string') return mask(value);
  if (Array.isArray(value)) return value.map((item) => maskAny(item, mask));
  if (typeof value !== 'object' || value === null) return value;
  const masked: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value))
    masked[key] = discriminators.has(key) ? field : maskAny(field, mask);
  return masked;
}
