import type { Arguments } from './parse-arguments.js';
import { parseJsonLenient } from './parse-arguments.js';
import type { JsonSchema } from './tool-json-schema.js';

type JsonType = 'array' | 'boolean' | 'integer' | 'number' | 'object' | 'string' | 'null';

/** The JSON types a property schema accepts, following `$ref`, `anyOf` and `oneOf`. */
function expectedTypes(schema: JsonSchema, defs: JsonSchema, seen = new Set<JsonSchema>()): Set<JsonType> {
  const types = new Set<JsonType>();
  if (seen.has(schema)) return types;
  seen.add(schema);
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
    const target = defs[ref.slice('#/$defs/'.length)];
    if (isSchema(target)) for (const type of expectedTypes(target, defs, seen)) types.add(type);
  }
  for (const key of ['anyOf', 'oneOf']) {
    const options = schema[key];
    if (Array.isArray(options)) {
      for (const option of options)
        if (isSchema(option)) for (const t of expectedTypes(option, defs, seen)) types.add(t);
    }
  }
  const declared = schema.type;
  for (const type of Array.isArray(declared) ? declared : [declared]) {
    if (typeof type === 'string') types.add(type as JsonType);
  }
  return types;
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCollection(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}

/** Decodes a JSON-encoded list/object; failing that, cuts trailing garbage after the last `}` or `]`. */
function decodeCollection(text: string): unknown {
  try {
    const parsed = parseJsonLenient(text);
    if (isCollection(parsed)) return parsed;
    return undefined;
  } catch {
    for (const end of ['}', ']']) {
      const index = text.lastIndexOf(end);
      if (index === -1) continue;
      try {
        const parsed = parseJsonLenient(text.slice(0, index + 1));
        if (isCollection(parsed)) return parsed;
      } catch {
        // try the other closing bracket
      }
    }
    return undefined;
  }
}

/**
 * §9.2 step 4: repairs what models commonly get wrong, field by field against the tool's JSON Schema.
 * - list/object fields sent as JSON text are decoded (`"[1, 5]"` → `[1, 5]`);
 * - string fields sent as an array of strings are joined (chunked `old_str`);
 * - number/integer/boolean fields sent as strings (`"30"`, `"true"`) are converted, as pydantic's lax mode does
 *   when the reference validates the action.
 */
export function repairArguments(arguments_: Arguments, schema: JsonSchema): Arguments {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const defs = isSchema(schema.$defs) ? schema.$defs : {};
  const repaired = { ...arguments_ };
  for (const [key, propertySchema] of Object.entries(properties)) {
    if (!(key in repaired) || !isSchema(propertySchema)) continue;
    const value = repaired[key];
    const types = expectedTypes(propertySchema, defs);
    const wantsCollection = types.has('array') || types.has('object');
    if (Array.isArray(value)) {
      if (types.has('string') && !wantsCollection && value.every((part) => typeof part === 'string')) {
        repaired[key] = value.join('');
      }
      continue;
    }
    if (typeof value !== 'string') continue;
    if (wantsCollection) {
      const decoded = decodeCollection(value);
      if (decoded !== undefined) repaired[key] = decoded;
    } else if (types.has('string')) {
    } else if ((types.has('number') || types.has('integer')) && value.trim() !== '') {
      const number = Number(value.trim());
      if (Number.isFinite(number)) repaired[key] = number;
    } else if (types.has('boolean') && /^(true|false)$/i.test(value.trim())) {
      repaired[key] = value.trim().toLowerCase() === 'true';
    }
  }
  return repaired;
}
