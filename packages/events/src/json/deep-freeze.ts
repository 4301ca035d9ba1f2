/**
 * Freezes a JSON-like value and everything inside it; returns it for chaining. Iterative, so no
 * nesting depth can overflow the stack; a frozen value is not entered again, so cycles end.
 */
export function deepFreeze<T>(value: T): T {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (item === null || typeof item !== 'object' || Object.isFrozen(item)) continue;
    Object.freeze(item);
    if (Array.isArray(item)) {
      for (const element of item) if (element !== null && typeof element === 'object') pending.push(element);
    } else {
      for (const key of Object.keys(item)) {
        const element = (item as Record<string, unknown>)[key];
        if (element !== null && typeof element === 'object') pending.push(element);
      }
    }
  }
  return value;
}
