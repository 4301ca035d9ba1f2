import { maskStrings } from './mask-strings.js';

/** How deep a `cause` chain is followed (a chain longer than this is not one an error path builds). */
const maxCauses = 8;

/**
 * Applies `mask` in place to an error and every error in its `cause` chain: the message, the stack and every other
 * own data property (an SDK error's parsed `error` body, a `providerMessage`, ...), strings directly and objects by a
 * masked copy. Loggers print the whole chain (pino joins the causes' messages and stacks into the one it writes),
 * and a thrown error travels further than any event: masking only the outer message would leave the secret one
 * `cause` below. A property that cannot be redefined (frozen, a getter) is left as it is.
 */
export function maskErrorChain(error: unknown, mask: (text: string) => string): void {
  const seen = new Set<object>();
  let current: unknown = error;
  for (let depth = 0; depth < maxCauses && current instanceof Error && !seen.has(current); depth++) {
    seen.add(current);
    for (const key of Object.getOwnPropertyNames(current)) {
      if (key === 'cause') continue;
      const descriptor = Object.getOwnPropertyDescriptor(current, key);
      if (descriptor === undefined || !('value' in descriptor)) continue;
      const value: unknown = descriptor.value;
      const masked =
        typeof value === 'string'
          ? mask(value)
          : typeof value === 'object' && value !== null
            ? maskStrings(value, mask)
            : value;
      if (masked === value) continue;
      try {
        Object.defineProperty(current, key, { ...descriptor, value: masked });
      } catch {
        // Non-configurable and read-only: nothing to do about it here.
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
}
