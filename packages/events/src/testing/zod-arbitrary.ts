import fc from 'fast-check';
import type { z } from 'zod';

/** Arbitraries used for specific object fields instead of the ones derived from their schema. */
export type FieldOverrides = Readonly<Record<string, fc.Arbitrary<unknown>>>;

/** Any string, surrogates and control characters included (they must survive JSON). */
export const arbitraryText = (): fc.Arbitrary<string> => fc.string({ unit: 'binary', maxLength: 12 });

/**
 * Free-form JSON (state values, hook inputs, metadata), as JSON would give it back: no `-0`, and no
 * `__proto__` key (zod's record parsing drops that key, see the README).
 */
export const arbitraryJsonValue = (): fc.Arbitrary<unknown> =>
  fc
    .jsonValue({ maxDepth: 2 })
    .filter((value) => !JSON.stringify(value).includes('"__proto__"'))
    .map((value) => JSON.parse(JSON.stringify(value)) as unknown);

/**
 * An arbitrary of the *input* values a zod schema accepts, derived from the schema: objects,
 * strings, numbers (integer and bounds checks honoured), booleans, literals, enums, arrays,
 * optionals, defaults, unions, records, pipes (their output side) and unknowns. Optional and
 * defaulted fields are sometimes left out. `overrides` replaces the arbitrary of named top-level fields.
 */
export function arbitraryFromSchema(schema: z.ZodType, overrides: FieldOverrides = {}): fc.Arbitrary<unknown> {
  const def = (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>;
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      const required: string[] = [];
      for (const [key, field] of Object.entries(shape)) {
        model[key] = overrides[key] ?? arbitraryFromSchema(unwrapOptional(field));
        if (!isOptional(field) || overrides[key] !== undefined) required.push(key);
      }
      return fc.record(model, { requiredKeys: required });
    }
    case 'string': {
      const minLength = (schema as unknown as { minLength: number | null }).minLength ?? 0;
      return fc.string({ unit: 'binary', minLength, maxLength: Math.max(minLength, 12) });
    }
    case 'number': {
      const number = schema as unknown as { isInt: boolean; minValue: number | null; maxValue: number | null };
      const min = Math.max(number.minValue ?? -(2 ** 31), -(2 ** 31));
      const max = Math.min(number.maxValue ?? 2 ** 31, 2 ** 31);
      if (number.isInt) return fc.integer({ min, max });
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((value) => (value === 0 ? 0 : value));
    }
    case 'boolean':
      return fc.boolean();
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
    case 'array':
      return fc.array(arbitraryFromSchema(def.element as z.ZodType), { maxLength: 3 });
    case 'optional':
    case 'nullable':
    case 'default':
      return arbitraryFromSchema(def.innerType as z.ZodType);
    case 'union':
      return fc.oneof(...(def.options as z.ZodType[]).map((option) => arbitraryFromSchema(option)));
    case 'record':
      return fc.dictionary(
        arbitraryText().filter((key) => key !== '__proto__'),
        arbitraryFromSchema(def.valueType as z.ZodType),
        { maxKeys: 3 },
      );
    case 'pipe':
      return arbitraryFromSchema(def.out as z.ZodType);
    case 'unknown':
    case 'any':
      return arbitraryJsonValue();
    default:
      throw new TypeError(`arbitraryFromSchema: unsupported zod type "${def.type}"`);
  }
}

interface SchemaDef {
  readonly type: string;
  readonly [key: string]: unknown;
}

function isOptional(schema: z.ZodType): boolean {
  const type = (schema as unknown as { _zod: { def: SchemaDef } })._zod.def.type;
  return type === 'optional' || type === 'default' || type === 'unknown';
}

function unwrapOptional(schema: z.ZodType): z.ZodType {
  const def = (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
  return def.type === 'optional' ? (def.innerType as z.ZodType) : schema;
}
