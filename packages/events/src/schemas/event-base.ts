import { z } from 'zod';
import { type SourceType, sourceTypeSchema } from './common.js';

/** The reserved parent id meaning "explicitly a root of the conversation tree". */
export const ROOT_PARENT_ID = '__root__';

/**
 * The one other id no event may have: state records keyed by event id (the actions and messages hooks blocked) are
 * JSON objects, and a JSON object's `__proto__` key is its prototype to JavaScript (zod drops it), so a block of an
 * event of that id would be lost and the event run anyway.
 */
export const PROTOTYPE_KEY = '__proto__';

export const eventIdSchema = z
  .string()
  .min(1, 'an event id must not be empty')
  .refine((id) => id !== ROOT_PARENT_ID, { message: `"${ROOT_PARENT_ID}" is reserved and cannot be an event id` })
  .refine((id) => id !== PROTOTYPE_KEY, { message: `"${PROTOTYPE_KEY}" cannot be an event id` });

/**
 * Builds an event schema with the base fields first and `kind` last, the key order the
 * reference writes, so our files read like theirs. `source` is required unless a default is given.
 */
type SourceField<Default extends SourceType | undefined> = Default extends SourceType
  ? z.ZodDefault<typeof sourceTypeSchema>
  : typeof sourceTypeSchema;

export function eventSchema<
  const Kind extends string,
  const Shape extends z.ZodRawShape,
  const Default extends SourceType | undefined = undefined,
>(kind: Kind, options: { source?: Default }, shape: Shape) {
  const source = (
    options.source === undefined ? sourceTypeSchema : sourceTypeSchema.default(options.source)
  ) as SourceField<Default>;
  return z.object({
    /** UUID v4 by default; any non-empty string except `__root__`. */
    id: eventIdSchema,
    /** Local naive ISO time with microseconds, `YYYY-MM-DDTHH:MM:SS.ffffff`; compared as strings. */
    timestamp: z.string(),
    source,
    /** Parent in the conversation tree; absent means the previous event (or root at index 0). */
    parent_id: z.string().optional(),
    ...shape,
    kind: z.literal(kind),
  });
}
