import { z } from 'zod';

/** The literal a redacted secret value serializes to (§7.8). */
export const redactedSecretValue = '**********';

/**
 * A `StaticSecret` as the reference writes it: `value` is the redacted literal, a Fernet token (when written
 * with a cipher), or plaintext; null and absence mean "no value".
 */
export const staticSecretJsonSchema = z.object({
  description: z.string().nullish(),
  value: z.string().nullish(),
  kind: z.literal('StaticSecret'),
});
export type StaticSecretJson = z.infer<typeof staticSecretJsonSchema>;

/**
 * A `LookupSecret` (its value fetched from `url` by the reference when a command names it), or a source of a kind
 * defined by a reference user's own code: x cannot produce their values, so it keeps them as written (secret headers
 * stay encrypted or redacted as they were) and writes them back unchanged.
 */
export const keptSecretSourceJsonSchema = z.looseObject({
  description: z.string().nullish(),
  kind: z.string().refine((kind) => kind !== 'StaticSecret'),
});
export type KeptSecretSourceJson = z.infer<typeof keptSecretSourceJsonSchema>;

/** The registry as stored in base_state.json under `secret_registry`. Older files may lack `secret_sources`. */
export const secretRegistryJsonSchema = z.object({
  secret_sources: z
    .record(z.string(), z.union([staticSecretJsonSchema, keptSecretSourceJsonSchema]))
    .nullish()
    .transform((sources) => sources ?? {}),
});
export type SecretRegistryJson = z.infer<typeof secretRegistryJsonSchema>;
