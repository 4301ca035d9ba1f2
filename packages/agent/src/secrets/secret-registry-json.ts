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
  kind: z.literal('StaticSecret', { error: 'only StaticSecret can be loaded (LookupSecret is not supported)' }),
});
export type StaticSecretJson = z.infer<typeof staticSecretJsonSchema>;

/** The registry as stored in base_state.json under `secret_registry`. Older files may lack `secret_sources`. */
export const secretRegistryJsonSchema = z.object({
  secret_sources: z
    .record(z.string(), staticSecretJsonSchema)
    .nullish()
    .transform((sources) => sources ?? {}),
});
export type SecretRegistryJson = z.infer<typeof secretRegistryJsonSchema>;
