/**
 * A JSON object's `__proto__` key is data like any other (`JSON.parse` makes it an own property), but
 * zod's records and loose objects skip it and plain assignment sets the prototype instead. So an event
 * that holds one is validated with the key renamed to this placeholder (an ordinary key to zod, kept or
 * stripped exactly as any other unknown key would be) and renamed back afterwards. Random per process,
 * so no text can spell it in advance.
 */
export const PROTOTYPE_KEY_PLACEHOLDER = `__proto__\u0000${Math.random().toString(36).slice(2)}`;

/**
 * Renames every placeholder key in `value` (objects this package just built, not yet frozen) back to an own
 * `__proto__` data property, in place and at the same position among the keys. Never sets a prototype.
 */
export function restorePrototypeKeys(value: unknown): void {
  const pending: unknown[] = [value];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const item = pending.pop();
    if (item === null || typeof item !== 'object' || seen.has(item)) continue;
    seen.add(item);
    if (Array.isArray(item)) {
      for (const element of item) pending.push(element);
      continue;
    }
    const record = item as Record<string, unknown>;
    if (Object.hasOwn(record, PROTOTYPE_KEY_PLACEHOLDER)) renameInPlace(record);
    for (const key of Object.keys(record)) pending.push(record[key]);
  }
}

/** Re-adds the keys from the placeholder on, so `__proto__` keeps the placeholder's place in the order. */
function renameInPlace(record: Record<string, unknown>): void {
  const keys = Object.keys(record);
  const from = keys.indexOf(PROTOTYPE_KEY_PLACEHOLDER);
  const tail = keys.slice(from).map((key) => [key, record[key]] as const);
  for (const [key] of tail) delete record[key];
  for (const [key, item] of tail) {
    Object.defineProperty(record, key === PROTOTYPE_KEY_PLACEHOLDER ? '__proto__' : key, {
      value: item,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
}

/** A path part as the caller wrote it (the placeholder is `__proto__`). */
export function originalKey(part: PropertyKey): PropertyKey {
  return part === PROTOTYPE_KEY_PLACEHOLDER ? '__proto__' : part;
}
