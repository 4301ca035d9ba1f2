/**
 * Arrays only ever pushed onto for as long as they live: a View's fold (`View.events` when the view needs no
 * repair), which a condensation replaces with a new array rather than changing. A reader that remembers what
 * such an array held (`eventsToMessages`) knows its old elements are still there, in place, without comparing
 * them one by one. Internal: a caller's array is never in it.
 */
const appendOnly = new WeakSet<readonly unknown[]>();

export function markAppendOnly(array: readonly unknown[]): void {
  appendOnly.add(array);
}

export function isAppendOnly(array: readonly unknown[]): boolean {
  return appendOnly.has(array);
}
