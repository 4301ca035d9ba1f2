/** What replaces a censored value (pino's `redact` censor, `redactUrl` and `censorLogLine`). */
export const REDACTED = '[REDACTED]';

/**
 * The words a credential's name ends in, compared lower-cased with everything but letters and digits dropped, so
 * that `Authorization`, `authorization`, `X-Api-Key`, `x_api_key`, `API_KEY`, `apiKey` and `PASS_PHRASE` are one
 * name: api key, authorization (or authorisation), cookie, password, passphrase, secret (key), token, private/session/
 * access key or credential, in the plural too (a list of keys is as secret as one) but for token (`prompt_tokens` is
 * a count), and numbered (`OPENAI_API_KEY_2`). `max_tokens`, `tokenizer` or `secret_names` end otherwise and stay.
 */
const SENSITIVE_WORDS =
  'apikeys?|authori[sz]ations?|cookies?|passwords?|passwd|passphrases?|secrets?|secretkeys?|token|privatekeys?|sessionkeys?|accesskeys?|credentials?';
const SENSITIVE_NAME = new RegExp(`(?:${SENSITIVE_WORDS})\\d*$`);

export function isSensitiveLogKey(name: string): boolean {
  return SENSITIVE_NAME.test(lettersAndDigits(name));
}

function lettersAndDigits(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * A cheap look at a serialized line for a name that may be sensitive: only a line that has one is parsed and walked.
 * It reads the line as `isSensitiveLogKey` reads a name (JSON escapes, then all but letters and digits dropped) and
 * looks for the same words anywhere, so it is never stricter than the name check: a key spelled `pass_word` or
 * `"api\tkey"` is not let through unparsed. Most lines have none (`incoming request`, `request completed`).
 */
const SENSITIVE_WORD = new RegExp(SENSITIVE_WORDS);

function mayHaveSensitiveKey(line: string): boolean {
  return SENSITIVE_WORD.test(lettersAndDigits(line.replace(/\\(?:u[0-9a-fA-F]{4}|.)/g, '')));
}

/**
 * pino's `hooks.streamWrite`: the serialized line as it goes to the stream, with the value of every sensitive key
 * censored, in any case or spelling of the name and at any depth: in the logged object, an error's properties (an
 * HTTP client's error carries its request's headers), a child logger's bindings, whatever a serializer produced. An
 * array of strings in `rawHeaders` shape (name, value, name, value) has the value after a sensitive name censored.
 * pino's own `redact` paths are exact and case-sensitive, so they let `Authorization` or `API_KEY` through.
 */
export function censorLogLine(line: string): string {
  if (!mayHaveSensitiveKey(line)) return line;
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
