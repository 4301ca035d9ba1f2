/**
 * Applies `mask` to every string inside a JSON-like value (objects, arrays, nested), leaving the `kind` and `type`
 * discriminators alone. Tools put their output in more fields than `content` (a file editor's old and new
 * content, a command line, MCP structured results), and every one of them is stored in the event.
 *
 * A value in which `mask` changes nothing (an observation without a secret: almost every step) is returned as it
 * is, found by a flat walk that allocates nothing per string; only a value with something to hide is copied, and
 * then only along the paths that change. Callers copy what they keep (`createEvent` copies its input).
 */
export function maskStrings<T>(value: T, mask: (text: string) => string): T {
  return needsMask(value, mask) ? (maskAny(value, mask) as T) : value;
}

/** Keys whose value picks a schema (`kind` of an observation, `type` of a content part), never output. */
const discriminators = new Set(['kind', 'type']);

/**
 * Whether `mask` changes any string of the value. A loop over a stack, not recursion: it runs at every step, and
 * the optimizing compiler inlined the recursive walk into itself level after level (~18 ms of compilation in a
 * 1,000-step loop, bench/peers.bench.ts). Each object is entered once, so a cycle ends.
 */
function needsMask(value: unknown, mask: (text: string) => string): boolean {
  if (typeof value === 'string') return mask(value) !== value;
  if (typeof value !== 'object' || value === null) return false;
  const pending: object[] = [value];
  const entered = new Set<object>(pending);
  while (pending.length > 0) {
    const item = pending.pop() as Record<string, unknown> | unknown[];
    const keys = Array.isArray(item) ? undefined : Object.keys(item);
    const length = keys === undefined ? (item as unknown[]).length : keys.length;
    for (let index = 0; index < length; index++) {
      let child: unknown;
      if (keys === undefined) {
        child = (item as unknown[])[index];
      } else {
        const key = keys[index] as string;
        if (discriminators.has(key)) continue;
        child = (item as Record<string, unknown>)[key];
      }
      if (typeof child === 'string') {
        if (mask(child) !== child) return true;
      } else if (typeof child === 'object' && child !== null && !entered.has(child)) {
        entered.add(child);
        pending.push(child);
      }
    }
  }
  return false;
}

/** The copy with every string masked: only for a value `needsMask` found something in. */
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
    copy ??= { ...record };
    // Defined, not assigned: a `__proto__` field stays a field.
    Object.defineProperty(copy, key, { value: masked, enumerable: true, writable: true, configurable: true });
  }
  return copy ?? value;
}
