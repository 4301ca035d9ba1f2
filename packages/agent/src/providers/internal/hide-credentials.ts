import { credentialValues, hideCredentialValues } from '../../secrets/internal/credential-values.js';
import { maskErrorChain } from '../../secrets/internal/mask-error.js';

/**
 * The credentials an LLM's errors must never carry: its API key (as resolved, from the config or the environment),
 * the values of its extra headers (`api-key`, `Authorization`, ...) and what the base URL holds (see
 * `credentialValues`).
 */
export function llmCredentials(options: {
  apiKey: string | undefined;
  headers: Readonly<Record<string, string>> | undefined;
  baseURL: string | undefined;
}): string[] {
  return credentialValues({ values: [options.apiKey], headers: options.headers, url: options.baseURL });
}

/**
 * Hides `credentials` (and their base64, percent, hex and JSON-escaped forms, as tool output is masked) in an LLM
 * error and its whole `cause` chain (the SDK's error with the provider's body), in place: a provider that echoes the
 * key it refused ("Incorrect API key provided: sk-..."), or a message naming the base URL with its userinfo or
 * query, must not carry it into a ConversationErrorEvent, a thrown error or a log line.
 */
export function hideCredentials<E extends Error>(error: E, credentials: readonly string[]): E {
  if (credentials.length === 0) return error;
  maskErrorChain(error, (text) => hideCredentialValues(text, credentials));
  return error;
}
