import type { z } from 'zod';
import type { EventParseIssue } from '../errors/event-parse-error.js';
import { originalKey } from './prototype-key.js';

/** `['llm_message', 'content', 0, 'text']` → `llm_message.content[0].text`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const given of path) {
    const part = originalKey(given);
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

/** zod issues as parse issues, their paths under `prefix` (e.g. `['action']`). */
export function toIssues(error: z.ZodError, prefix: readonly PropertyKey[] = []): EventParseIssue[] {
  return error.issues.map((issue) => ({ path: formatPath([...prefix, ...issue.path]), message: issue.message }));
}

/**
 * Sets an own data property, even for the key `__proto__` (plain assignment would change the
 * prototype instead of keeping the field).
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // `__proto__` is the only inherited setter of a plain object; every other key can be assigned,
  // which is several times faster than defineProperty on this hot path.
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}
