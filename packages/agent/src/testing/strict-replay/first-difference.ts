/** The first place two JSON values differ: its path and both values (undefined where absent). */
export interface Difference {
  readonly path: string;
  readonly recorded: unknown;
  readonly replayed: unknown;
}

/**
 * Walks two JSON-like values in order and returns the first difference. Object keys listed in `ignore`
 * are skipped (volatile fields); strings go through `normalize` first (e.g. to blank out temp paths).
 */
export function firstDifference(
  recorded: unknown,
  replayed: unknown,
  options: { ignore: ReadonlySet<string>; normalize: (text: string) => string },
  path = '',
): Difference | undefined {
  if (typeof recorded === 'string' && typeof replayed === 'string') {
    return options.normalize(recorded) === options.normalize(replayed) ? undefined : { path, recorded, replayed };
  }
  if (Array.isArray(recorded) && Array.isArray(replayed)) {
    const shared = Math.min(recorded.length, replayed.length);
    for (let i = 0; i < shared; i++) {
      const found = firstDifference(recorded[i], replayed[i], options, `${path}[${i}]`);
      if (found) return found;
    }
    if (recorded.length !== replayed.length) {
      return { path: `${path}[${shared}]`, recorded: recorded[shared], replayed: replayed[shared] };
    }
    return undefined;
  }
  if (isObject(recorded) && isObject(replayed)) {
    const keys = new Set([...Object.keys(recorded), ...Object.keys(replayed)]);
    for (const key of keys) {
      if (options.ignore.has(key)) continue;
      const a = recorded[key];
      const b = replayed[key];
      // An absent key and an explicit undefined/null/empty list are the same request.
      if (isEmpty(a) && isEmpty(b)) continue;
      const found = firstDifference(a, b, options, path === '' ? key : `${path}.${key}`);
      if (found) return found;
    }
    return undefined;
  }
  return Object.is(recorded, replayed) ? undefined : { path, recorded, replayed };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (Array.isArray(value) && value.length === 0);
}
