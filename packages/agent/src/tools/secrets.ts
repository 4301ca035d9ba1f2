import { setOwnEntry } from '../internal/own-entries.js';
import { maskValues } from '../secrets/internal/mask-values.js';

/** The text that replaces a secret value in tool output. */
export const secretPlaceholder = '<secret-hidden>';

/**
 * The environment a command gets from the conversation's secrets (§7.8): every secret whose name appears in the
 * command text, compared case-insensitively (`echo $github_token` picks `GITHUB_TOKEN`).
 */
export function secretEnvFor(command: string, secrets: Readonly<Record<string, string>>): Record<string, string> {
  const text = command.toLowerCase();
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(secrets)) {
    // Set as an own key: a variable named `__proto__` is assigned, not made the object's prototype (and lost).
    if (name !== '' && text.includes(name.toLowerCase())) setOwnEntry(env, name, value);
  }
  return env;
}

/**
 * Replaces every occurrence of each secret value, and of its base64, percent, hex and JSON-escaped forms, with
 * `<secret-hidden>`; overlapping or touching matches merge, so a secret that contains another is hidden whole
 * (what this can and cannot catch: README, "What masking promises").
 */
export function maskSecrets(text: string, values: readonly string[]): string {
  return maskValues(text, new Set(values), secretPlaceholder);
}
