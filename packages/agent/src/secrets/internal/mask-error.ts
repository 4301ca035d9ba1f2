import { maskStrings } from './mask-strings.js';

/**
 * Applies `mask` in place to an error and every error it leads to, as a logger prints them: its `cause` chain, the
 * errors of an AggregateError, an error kept in a property (`error.error`). Of each, the message, the stack and
 * every other own data property (an SDK error's parsed `error` body, a `providerMessage`, a `cause` that is a
 * string or a plain object, ...) is masked: strings directly, other objects by a masked copy. Loggers print the
 * whole chain (pino joins the causes' messages and stacks into the one it writes, `util.inspect` shows every own
 * property), and a thrown error travels further than any event: masking only the outer message would leave the
 * secret one `cause` below. A property that cannot be redefined (frozen, a getter) is left as it is.
 */
export function maskErrorChain(error: unknown, mask: (text: string) => string): void {
  // Every error is entered once (a cycle of causes ends), and none is left out: a depth limit would leave the error
  // one level past it, which a logger prints all the same.
  const seen = new Set<object>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    maskOwnProperties(current, mask, pending);
  }
}

/** Masks the own data properties of `target` in place; errors found among them go to `pending`, masked in place. */
function maskOwnProperties(target: object, mask: (text: string) => string, pending: unknown[]): void {
  for (const key of Object.getOwnPropertyNames(target)) {
    const descriptor = Object.getOwnPropertyDescriptor(target, key);
    // An accessor has no `value` and is left alone: a getter may compute anything.
    const value: unknown = descriptor?.value;
    // An error keeps its identity (and class): it is masked in place, not replaced by a plain copy. So is an array
    // that holds one (AggregateError's `errors`), whose other items are masked where they stand.
    if (isError(value) || (Array.isArray(value) && value.some(isError))) {
      pending.push(value);
      continue;
    }
    // Errors held deeper in a plain value (`{ response: { error } }`) are masked in place too: the copy below sees
    // only enumerable fields, and an error's message and stack are not.
    pushNestedErrors(value, pending);
    // An object is replaced by a copy with its strings masked (one the SDK still holds is not changed under it);
    // anything but a string or an object comes back as it is.
    const masked = typeof value === 'string' ? mask(value) : maskStrings(value, mask);
    if (masked === value) continue;
    try {
      Object.defineProperty(target, key, { ...descriptor, value: masked });
    } catch {
      // Non-configurable and read-only: nothing to do about it here.
    }
  }
}

/** Puts every error found inside `value` (objects and arrays, enumerable fields, any depth) on `pending`. */
function pushNestedErrors(value: unknown, pending: unknown[]): void {
  if (typeof value !== 'object' || value === null) return;
  const stack: unknown[] = [value];
  const entered = new Set<object>();
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== 'object' || item === null || entered.has(item)) continue;
    entered.add(item);
    if (isError(item)) {
      pending.push(item);
      continue;
    }
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push(child);
  }
}

/** An error of this realm or another one (a `vm` context's, whose errors fail `instanceof Error`). */
function isError(value: unknown): value is object {
  return value instanceof Error || Object.prototype.toString.call(value) === '[object Error]';
}
