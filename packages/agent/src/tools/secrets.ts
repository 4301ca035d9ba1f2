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
    if (name !== '' && text.includes(name.toLowerCase())) env[name] = value;
  }
  return env;
}

/** Replaces every occurrence of each secret value with `<secret-hidden>`; longer values first, so a secret that contains another is hidden whole. */
export function maskSecrets(text: string, values: readonly string[]): string {
  const sorted = [...new Set(values)].filter((value) => value !== '').sort((a, b) => b.length - a.length);
  let masked = text;
  for (const value of sorted) masked = masked.replaceAll(value, secretPlaceholder);
  return masked;
}
