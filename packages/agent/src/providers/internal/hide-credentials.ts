import { maskErrorChain } from '../../secrets/internal/mask-error.js';
import { maskValues } from '../../secrets/internal/mask-values.js';
import { secretPlaceholder } from '../../tools/secrets.js';

/**
 * Credentials shorter than this are not hidden: placeholder keys (`not-needed`, a test's `k`) would mask every
 * occurrence of a common word in the message; real API keys are far longer.
 */
const minimumCredentialLength = 8;

/**
 * The credentials an LLM's errors must never carry: its API key (as resolved, from the config or the environment),
 * the values of its extra headers (`api-key`, `Authorization`, ...) and what the base URL holds (the user and
 * password of its userinfo, as written and decoded, and the values of its query parameters, e.g. `?key=...`).
 */
export function llmCredentials(options: {
  apiKey: string | undefined;
  headers: Readonly<Record<string, string>> | undefined;
  baseURL: string | undefined;
}): string[] {
  const values = [options.apiKey, ...Object.values(options.headers ?? {})];
  for (const header of Object.values(options.headers ?? {})) {
    // `Bearer <token>`, `Basic <b64>`: the token alone may be echoed too.
    const token = /^\S+\s+(\S+)$/u.exec(header)?.[1];
    if (token !== undefined) values.push(token);
  }
  if (options.baseURL !== undefined) {
    try {
      const url = new URL(options.baseURL);
      // The URL keeps its userinfo percent-encoded; a message may show it either way (fetch names the URL as written).
      for (const part of [url.username, url.password]) values.push(...spellings(part));
      for (const value of url.searchParams.values()) values.push(value);
    } catch {
      // Not a URL: the SDK refuses it with its own error, which names no credential of it.
    }
  }
  return [...new Set(values.filter((value): value is string => (value?.length ?? 0) >= minimumCredentialLength))];
}

/** A userinfo part as written and decoded; only as written where a `%` starts no escape (`p%ss`, decoding throws). */
function spellings(part: string): string[] {
  try {
    return [part, decodeURIComponent(part)];
  } catch {
    return [part];
  }
}

/**
 * Hides `credentials` (and their base64, percent, hex and JSON-escaped forms, as tool output is masked) in an LLM
 * error and its whole `cause` chain (the SDK's error with the provider's body), in place: a provider that echoes the
 * key it refused ("Incorrect API key provided: sk-..."), or a message naming the base URL with its userinfo or
 * query, must not carry it into a ConversationErrorEvent, a thrown error or a log line.
 */
export function hideCredentials<E extends Error>(error: E, credentials: readonly string[]): E {
  if (credentials.length === 0) return error;
  maskErrorChain(error, (text) => maskValues(text, credentials, secretPlaceholder));
  return error;
}
