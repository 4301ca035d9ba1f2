/**
 * `{ ...source }` for an object the caller then adds fields to. On Node 20 (V8 11.3) an object spread followed by
 * more properties (`{ ...source, extra }`, or a store into the spread's copy) costs microseconds per object, 10-40×
 * an `Object.assign` copy; Node 22 is fast either way. The same own enumerable fields in the same order; a
 * `__proto__` field takes the spread, whose copy keeps it a field where `Object.assign` would set the prototype.
 */
export function copyFields<T extends object>(source: T): T {
  return Object.hasOwn(source, '__proto__') ? { ...source } : Object.assign({}, source);
}
