/**
 * Reading and writing a plain object by a name that comes from outside (a tool, usage id, event id, secret or server
 * name). `record[name]` finds Object.prototype's members (`constructor`, `toString`, `__proto__`) when `record` has
 * no own entry of that name, and `record[name] = value` with `name === '__proto__'` replaces the object's prototype
 * instead of adding a key: these two keep such a name an ordinary key.
 */

/** `record[key]` when `record` has it as its own key, else undefined. */
export function ownEntry<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Sets `target[key]` as an own enumerable data property, `__proto__` included. */
export function setOwnEntry<T>(target: Record<string, T>, key: string, value: T): void {
  // `__proto__` is the only key a plain object inherits a setter for; any other key can be assigned (faster).
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}
