/** A provider base URL as its SDK can use it: fetch refuses a URL with userinfo, and SDKs append paths after it. */
export interface BaseUrlParts {
  /** The URL without userinfo, query or fragment. */
  baseURL: string;
  /** Its query parameters (the last value of a repeated name), sent with every request; undefined when none. */
  query: Record<string, string> | undefined;
  /** `Basic <base64(user:password)>` of its userinfo (decoded as fetch would); undefined when it has none. */
  authorization: string | undefined;
}

/** Splits a base URL into what its SDK is given. Text that is not a URL is passed on as it is (the SDK refuses it). */
export function splitBaseUrl(baseURL: string): BaseUrlParts {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return { baseURL, query: undefined, authorization: undefined };
  }
  if (url.username === '' && url.password === '' && url.search === '' && url.hash === '') {
    return { baseURL, query: undefined, authorization: undefined };
  }
  const authorization =
    url.username === '' && url.password === ''
      ? undefined
      : `Basic ${Buffer.from(`${decode(url.username)}:${decode(url.password)}`).toString('base64')}`;
  const query = url.search === '' ? undefined : Object.fromEntries(url.searchParams);
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return { baseURL: url.toString(), query, authorization };
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * The headers to send: the userinfo's `Authorization` (which replaces the SDK's own `Bearer <key>`: the URL names
 * how this endpoint authenticates), then the configured headers, which win over both.
 */
export function headersWithBasicAuth(
  parts: BaseUrlParts,
  headers: Readonly<Record<string, string>> | undefined,
): Record<string, string> | undefined {
  if (parts.authorization === undefined) return headers === undefined ? undefined : { ...headers };
  const configured = Object.keys(headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
  return configured ? { ...headers } : { Authorization: parts.authorization, ...headers };
}

/** `fetch` with `query` added to every request's URL (a parameter the request names itself is left as it is). */
export function fetchWithQuery(query: Readonly<Record<string, string>>): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    for (const [name, value] of Object.entries(query))
      if (!url.searchParams.has(name)) url.searchParams.set(name, value);
    return fetch(input instanceof Request ? new Request(url, input) : url, init);
  };
}
