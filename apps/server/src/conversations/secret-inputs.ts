import type { SecretInput } from '@x/agent';
import type { z } from 'zod';
import type { secretInputSchema } from '../api/request-schemas.js';

/**
 * The reference's secret values (a plain string, `{"value": ...}`, or a StaticSecret with `kind`) as
 * @x/agent's `SecretInput`s. Used by the start request's `secrets` and by `POST .../secrets`.
 */
export function secretInputsOf(
  secrets: Readonly<Record<string, z.infer<typeof secretInputSchema>>> | null | undefined,
): Record<string, SecretInput> {
  const inputs: Record<string, SecretInput> = {};
  for (const [name, value] of Object.entries(secrets ?? {})) {
    inputs[name] =
      typeof value === 'string'
        ? value
        : {
            ...(value.value === null || value.value === undefined ? {} : { value: value.value }),
            ...(value.description === null || value.description === undefined
              ? {}
              : { description: value.description }),
          };
  }
  return inputs;
}
