import { secretPlaceholder } from '../tools/secrets.js';

/** Query parameter names whose values are credentials (`key`, `api_key`, `access_token`, `sig`, `X-Amz-Signature`...). */
const secretParameter = /key|token|secret|pass|pwd|auth|sig|credential|session|code/i;

/**
 * A URL fit to show (in a log line, an error, a span, an event, an API response): the password of its userinfo
 * and the value of every query parameter whose name looks like a credential are replaced with `<secret-hidden>`;
 * the scheme, user, host, port, path, other parameters and fragment are kept as written. Text that is not a URL
 * is returned with any `//user:password@` in it masked the same way.
 */
export function maskUrlCredentials(url: string): string {
  const masked = url.replace(
    /(\/\/[^/?#@:\s]*):([^/?#@\s]*)@/u,
    (_match, user: string) => `${user}:${secretPlaceholder}@`,
  );
  const queryStart = masked.indexOf('?');
  if (queryStart === -1) return masked;
  const fragmentStart = masked.indexOf('#', queryStart);
  const queryEnd = fragmentStart === -1 ? masked.length : fragmentStart;
  const query = masked
    .slice(queryStart + 1, queryEnd)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      return secretParameter.test(decodeName(pair.slice(0, equals)))
        ? `${pair.slice(0, equals + 1)}${secretPlaceholder}`
        : pair;
    })
    .join('&');
  return `${masked.slice(0, queryStart + 1)}${query}${masked.slice(queryEnd)}`;
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
