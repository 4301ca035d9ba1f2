import { secretPlaceholder } from '../../tools/secrets.js';
import { maskValues } from './mask-values.js';

/**
 * Credentials shorter than this are not hidden: placeholder keys (`not-needed`, a test's `k`) and settings such as
 * `DEBUG=1` would mask every occurrence of a common word in a message; real keys and tokens are far longer.
 */
export const minimumCredentialLength = 8;

/**
 * The values a connection's errors and replies must never carry, from what configures it: `values` as given (an API
 * key, an MCP server's environment), every header value and the token of an `<scheme> <token>` header (`Bearer
 * <token>`, `Basic <b64>`: the token alone may be echoed too), and what the URL holds (the user and password of its
 * userinfo, as written and decoded, and the values of its query parameters, e.g. `?key=...`). Each once, and none
 * shorter than `minimumCredentialLength`.
 */
export function credentialValues(options: {
  values?: readonly (string | undefined)[];
  headers?: Readonly<Record<string, string>> | undefined;
  url?: string | undefined;
}): string[] {
  const headerValues = Object.values(options.headers ?? {});
  const values = [...(options.values ?? []), ...headerValues];
  for (const header of headerValues) {
    const token = /^\S+\s+(\S+)$/u.exec(header)?.[1];
    if (token !== undefined) values.push(token);
  }
  if (options.url !== undefined) {
    try {
      const url = new URL(options.url);
      // The URL keeps its userinfo percent-encoded; a message may show it either way (fetch names the URL as written).
      for (const part of [url.username, url.password]) values.push(...spellings(part));
      for (const value of url.searchParams.values()) values.push(value);
    } catch {
      // Not a URL: the client refuses it with its own error, which names no credential of it.
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

/** `text` with every one of `credentials` (and its encoded forms, as tool output is masked) hidden. */
export function hideCredentialValues(text: string, credentials: readonly string[]): string {
  return credentials.length === 0 ? text : maskValues(text, credentials, secretPlaceholder);
}
