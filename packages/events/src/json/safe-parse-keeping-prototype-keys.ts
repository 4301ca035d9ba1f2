import type { z } from 'zod';
import { originalKey, PROTOTYPE_KEY_PLACEHOLDER, restorePrototypeKeys } from './prototype-key.js';
import { walkJson } from './walk-json.js';

/**
 * `schema.safeParse(value)` for a free-form JSON value (a tool call's arguments, a record read from a file) that
 * keeps every `__proto__` key as an own field wherever the schema keeps unknown keys, and reports it as
 * `__proto__` in issues (paths, unrecognized keys, messages) wherever the schema refuses it. A value with no such
 * key is parsed as it is.
 */
export function safeParseKeepingPrototypeKeys<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
): z.ZodSafeParseResult<z.output<Schema>> {
  const checked = walkJson(value, { copy: false, dropNulls: false, foreign: true });
  if (!checked.ok || !checked.prototypeKey) return schema.safeParse(value);
  const renamed = walkJson(value, { copy: true, dropNulls: false, foreign: true, renamePrototypeKey: true });
  if (!renamed.ok) return schema.safeParse(value);
  const result = schema.safeParse(renamed.value);
  if (result.success) {
    restorePrototypeKeys(result.data);
    return result;
  }
  for (const issue of result.error.issues) {
    const mutable = issue as { path: PropertyKey[]; message: string; keys?: string[] };
    mutable.path = mutable.path.map(originalKey);
    if (Array.isArray(mutable.keys)) mutable.keys = mutable.keys.map((key) => originalKey(key) as string);
    mutable.message = mutable.message.split(PROTOTYPE_KEY_PLACEHOLDER).join('__proto__');
  }
  return result;
}
