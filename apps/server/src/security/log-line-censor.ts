/** What replaces a censored value (pino's `redact` censor, `redactUrl` and `censorLogLine`). */
export const REDACTED = '[REDACTED]';

/**
 * Names whose value never reaches the log, compared lower-cased with everything but letters and digits dropped, so
 * that `Authorization`, `authorization`, `X-Api-Key`, `x_api_key`, `API_KEY` and `apiKey` are one name: a name ending
 * in api key, authorization, cookie, password, passphrase, secret (key), token, private/session/access key or
 * credential(s). `max_tokens`, `tokenizer` or `secret_names` end otherwise and stay.
 */
const SENSITIVE_NAME =
  /(?:apikey|authorization|cookie|password|passwd|passphrase|secret|secretkey|token|privatekey|sessionkey|accesskey|credentials?)$/;

export function isSensitiveLogKey(name: string): boolean {
  return SENSITIVE_NAME.test(name.toLowerCase().replace(/[^a-z0-9]/g, ''));
}

/**
 * A cheap look at a serialized line for a key (or a string in a list) that may be sensitive, looser than
 * `isSensitiveLogKey`: only a line that has one is parsed and walked. Almost no line has one (`incoming request`,
 * `request completed`).
 */
const MAYBE_SENSITIVE_KEY =
  /"[^"\\]*(?:key|authori[sz]ation|cookie|passw|passphrase|secret|token|credential)[^"\\]*"\s*[:,]/i;

/**
 * pino's `hooks.streamWrite`: the serialized line as it goes to the stream, with the value of every sensitive key
 * censored, in any case or spelling of the name and at any depth: in the logged object, an error's properties (an
 * HTTP client's error carries its request's headers), a child logger's bindings, whatever a serializer produced. An
 * array of strings in `rawHeaders` shape (name, value, name, value) has the value after a sensitive name censored.
 * pino's own `redact` paths are exact and case-sensitive, so they let `Authorization` or `API_KEY` through.
 */
export function censorLogLine(line: string): string {
  if (!MAYBE_SENSITIVE_KEY.test(line)) return line;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    // Not a JSON line (a prettified stream): nothing to walk.
    return line;
  }
  const censored = censorValue(parsed);
  if (censored === parsed) return line;
  return `${JSON.stringify(censored)}${line.endsWith('\n') ? '\n' : ''}`;
}

/** The value with sensitive keys censored; the same value when there is none (copied only along changed paths). */
function censorValue(value: unknown): unknown {
  if (Array.isArray(value)) return censorArray(value);
  if (typeof value !== 'object' || value === null) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, child] of Object.entries(value)) {
    const replaced = isSensitiveLogKey(key) ? (child === REDACTED ? child : REDACTED) : censorValue(child);
    if (replaced === child) continue;
    copy ??= { ...(value as Record<string, unknown>) };
    copy[key] = replaced;
  }
  return copy ?? value;
}

function censorArray(items: unknown[]): unknown[] {
  let copy: unknown[] | undefined;
  items.forEach((item, index) => {
    const previous = items[index - 1];
    const afterName = index % 2 === 1 && typeof previous === 'string' && isSensitiveLogKey(previous);
    const replaced = afterName && typeof item === 'string' && item !== REDACTED ? REDACTED : censorValue(item);
    if (replaced === item) return;
    copy ??= [...items];
    copy[index] = replaced;
  });
  return copy ?? items;
}
