/**
 * Applies `mask` to every string inside a JSON-like value (objects, arrays, nested), leaving the `kind` and `type`
 * discriminators alone. Tools put their output in more fields than `content` (a file editor's old and new
 * content, a command line, MCP structured results), and every one of them is stored in the event.
 *
 * Copy on write: a part in which `mask` changed nothing is returned as it was (the same object), so a step whose
 * output holds no secret allocates nothing here. Callers copy what they keep (`createEvent` copies its input).
 */
export function maskStrings<T>(value: T, mask: (text: string) => string): T {
  return maskAny(value, mask) as T;
}

/** Keys whose value picks a schema (`kind` of an observation, `type` of a content part), never output. */
const discriminators = new Set(['kind', 'type']);

function maskAny(value: unknown, mask: (text: string) => string): unknown {
  if (typeof value === 'string') return mask(value);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const masked = maskAny(item, mask);
      if (masked === item) continue;
      copy ??= value.slice();
      copy[index] = masked;
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (discriminators.has(key)) continue;
    const field = record[key];
    const masked = maskAny(field, mask);
    if (masked === field) continue;
    // A plain data copy of the own enumerable fields, as the masked value always was.
    copy ??= { ...record };
    // Defined, not assigned: a `__proto__` field stays a field.
    Object.defineProperty(copy, key, { value: masked, enumerable: true, writable: true, configurable: true });
  }
  return copy ?? value;
}
