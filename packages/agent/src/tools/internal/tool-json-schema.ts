import { z } from 'zod';

export type JsonSchema = { [key: string]: unknown };

const strictCache = new WeakMap<z.ZodObject, z.ZodObject>();
const jsonSchemaCache = new WeakMap<z.ZodObject, JsonSchema>();

/**
 * The schema actions are validated with. Reference actions forbid unknown fields (`extra="forbid"`), so a plain
 * `z.object` (which would silently strip them) is made strict; an explicit catchall (`z.looseObject`, `.catchall`)
 * is the tool author's choice and kept.
 */
export function strictSchemaFor(schema: z.ZodObject): z.ZodObject {
  let strict = strictCache.get(schema);
  if (strict === undefined) {
    strict = schema._zod.def.catchall === undefined ? schema.strict() : schema;
    strictCache.set(schema, strict);
  }
  return strict;
}

/** JSON Schema of what the LLM may send (zod's input view: fields with defaults are optional), without `$schema`. */
export function inputJsonSchemaFor(schema: z.ZodObject): JsonSchema {
  let json = jsonSchemaCache.get(schema);
  if (json === undefined) {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
      io: 'input',
      unrepresentable: 'any',
    }) as JsonSchema;
    json = stripSafeIntegerBounds(rest) as JsonSchema;
    jsonSchemaCache.set(schema, json);
  }
  return json;
}

/** zod writes ±(2^53-1) bounds on every `.int()`: they carry no information and cost prompt tokens. */
function stripSafeIntegerBounds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripSafeIntegerBounds);
  if (typeof value !== 'object' || value === null) return value;
  const out: JsonSchema = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'minimum' && child === Number.MIN_SAFE_INTEGER) continue;
    if (key === 'maximum' && child === Number.MAX_SAFE_INTEGER) continue;
    out[key] = stripSafeIntegerBounds(child);
  }
  return out;
}
