import type { IncomingHttpHeaders } from 'node:http';
import { hostname as machineName, networkInterfaces } from 'node:os';
import { clientText } from '../internal/client-text.js';
import { headerItems, headerLines } from './header-lines.js';

/** What `checkHostAndOrigin` needs to know about the server. */
export interface HostOriginPolicy {
  /** The address the server binds (`config.host`). */
  bindHost: string;
  /** Extra `Host` values accepted, `name` (any port) or `name:port`; `*` accepts any Host. */
  allowedHosts: readonly string[];
  /** Extra `Origin` values accepted besides same-origin ones, e.g. `https://app.example`; `*` accepts any. */
  allowedOrigins: readonly string[];
  /** The port the server listens on (known once listening). */
  port(): number | undefined;
}

/** What was wrong with a refused request's Host, target or Origin. */
export type HostOriginProblem =
  | 'missing_host'
  | 'duplicate_host'
  | 'host_not_allowed'
  | 'target_host_not_allowed'
  | 'origin_not_allowed'
  | 'cross_site';

/** Why a request was refused: always 403, with a message that says which header and how to allow it. */
export interface HostOriginRefusal {
  status: 403;
  problem: HostOriginProblem;
  detail: string;
}

/**
 * How many `Host` field lines a request carried, from Node's `rawHeaders`. Node keeps only the first `Host` in
 * `headers`; a proxy in front may act on another one, so more than one is refused (RFC 9112 §3.2 calls such a request
 * invalid).
 */
function hostLines(rawHeaders: readonly string[] | undefined): number {
  return rawHeaders === undefined ? 1 : headerLines(rawHeaders, 'host').length;
}

/** The unspecified addresses in canonical form: `0`, `0:0:0:0:0:0:0:0`, `::0`... bind every interface too. */
const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '[::]']);
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

interface HostPort {
  /** Lowercase, brackets around IPv6, no trailing dot. */
  name: string;
  /** '' when the value had none. */
  port: string;
}

/** Parses a `Host`-style authority (`name[:port]`); undefined for anything that is not exactly that. */
export function parseAuthority(value: string): HostPort | undefined {
  if (value === '' || /[\s/\\?#@]/.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${value}`);
  } catch {
    return undefined;
  }
  const name = url.hostname.toLowerCase().replace(/\.$/, '');
  if (name === '') return undefined;
  const explicitPort = /:(\d+)$/.exec(value)?.[1];
  return { name, port: explicitPort === undefined ? '' : String(Number(explicitPort)) };
}

function bracketed(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** The host names the server answers to by default: loopback names, the bind address or, for a wildcard bind, the machine's. */
export function defaultHostNames(bindHost: string): string[] {
  const names = new Set(LOOPBACK_NAMES);
  const parsed = parseAuthority(bracketed(bindHost));
  if (bindHost === '' || (parsed !== undefined && WILDCARD_ADDRESSES.has(parsed.name))) {
    names.add(machineName().toLowerCase());
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) names.add(bracketed(address.address.toLowerCase().replace(/%.*$/, '')));
    }
  } else if (parsed !== undefined) {
    names.add(parsed.name);
  }
  return [...names];
}

/** The `Sec-Fetch-Site` values of a request the server's own pages (or no browser page) made. */
const SAFE_FETCH_SITES: ReadonlySet<string> = new Set(['same-origin', 'none']);

function refusal(problem: HostOriginProblem, detail: string): HostOriginRefusal {
  return { status: 403, problem, detail };
}

function shown(value: string): string {
  return JSON.stringify(clientText(value));
}

/**
 * Builds the check run on every HTTP request and WebSocket upgrade, before routing and before the session
 * key: a page on another site (directly, or through DNS rebinding, which makes the browser send the
 * attacker's name as `Host`) must not drive the server.
 *
 * - Exactly one `Host` field line (`rawHeaders`, when given, is counted: Node's `headers` shows only the first).
 * - `Host` (and the authority of an absolute-form request target) must be a default name (`localhost`,
 *   `127.0.0.1`, `[::1]`, the bind address; for a wildcard bind also the machine's names and addresses)
 *   with the server's port, or match an `allowedHosts` entry.
 * - `Origin`, when present, must be same-origin (its host equals `Host`) or in `allowedOrigins`;
 *   `Origin: null` is refused. Without `Origin`, a `Sec-Fetch-Site` with any value (of any line) other than `same-origin`
 *   or `none` is refused (`cross-site`, `same-site`, or one a browser never sends).
 */
export function createHostOriginCheck(
  policy: HostOriginPolicy,
): (
  headers: IncomingHttpHeaders,
  target: string | undefined,
  rawHeaders?: readonly string[],
) => HostOriginRefusal | undefined {
  const anyHost = policy.allowedHosts.includes('*');
  const anyOrigin = policy.allowedOrigins.includes('*');
  const defaults = new Set(defaultHostNames(policy.bindHost));
  const extraHosts = policy.allowedHosts
    .filter((entry) => entry !== '*')
    .map((entry) => parseAuthority(entry.trim()))
    .filter((entry): entry is HostPort => entry !== undefined);
  const extraOrigins = new Set(
    policy.allowedOrigins.filter((entry) => entry !== '*').map((entry) => normalizeOrigin(entry.trim()) ?? entry),
  );

  const hostAllowed = (host: HostPort): boolean => {
    // Not listening (e.g. `app.inject`): no port to compare with, the names decide.
    const listening = policy.port();
    const effectivePort = host.port === '' ? '80' : host.port;
    if (defaults.has(host.name) && (listening === undefined || effectivePort === String(listening))) return true;
    return extraHosts.some((entry) => entry.name === host.name && (entry.port === '' || entry.port === effectivePort));
  };

  return (headers, target, rawHeaders) => {
    const rawHost = headers.host;
    const host = rawHost === undefined ? undefined : parseAuthority(rawHost);
    if (!anyHost) {
      if (hostLines(rawHeaders) > 1) {
        return refusal('duplicate_host', 'Forbidden: more than one Host header');
      }
      if (rawHost === undefined || host === undefined) {
        return refusal('missing_host', 'Forbidden: missing or malformed Host header');
      }
      if (!hostAllowed(host)) {
        return refusal(
          'host_not_allowed',
          `Forbidden: Host ${shown(rawHost)} is not allowed (allow it with --allowed-host)`,
        );
      }
      if (target !== undefined && !target.startsWith('/') && target !== '*') {
        const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(target)?.[1];
        const parsed = authority === undefined ? undefined : parseAuthority(authority);
        if (parsed === undefined || !hostAllowed(parsed)) {
          return refusal('target_host_not_allowed', 'Forbidden: the request target names a host that is not allowed');
        }
      }
    }
    const origin = headers.origin;
    if (origin === undefined) {
      // Every line and comma-joined item is judged: a second line saying `cross-site` is not hidden by a first one.
      const sites = headerItems(headers, 'sec-fetch-site', rawHeaders).map((site) => site.toLowerCase());
      if (!anyOrigin && sites.some((site) => !SAFE_FETCH_SITES.has(site))) {
        return refusal(
          'cross_site',
          'Forbidden: cross-origin requests are refused (allow an origin with --allowed-origin)',
        );
      }
      return undefined;
    }
    if (anyOrigin) return undefined;
    // Node joins repeated lines, which no origin matches; said here as what it is.
    if (rawHeaders !== undefined && headerLines(rawHeaders, 'origin').length > 1) {
      return refusal('origin_not_allowed', 'Forbidden: more than one Origin header');
    }
    const normalized = normalizeOrigin(origin);
    if (normalized !== undefined && extraOrigins.has(normalized)) return undefined;
    if (normalized !== undefined && host !== undefined && sameOrigin(normalized, host)) return undefined;
    return refusal(
      'origin_not_allowed',
      `Forbidden: cross-origin request from Origin ${shown(origin)} refused (allow it with --allowed-origin)`,
    );
  };
}

const SCHEME_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/**
 * Whether a page of `origin` (canonical, from `normalizeOrigin`) sent the request to its own host: same name, same
 * port. The port a `Host` without one stands for is the default of the page's scheme (a TLS proxy in front may have
 * taken `https`), so `Host: app.example` and `Host: app.example:443` are both the page `https://app.example`.
 */
function sameOrigin(origin: string, host: HostPort): boolean {
  const url = new URL(origin);
  const originHost = parseAuthority(url.host);
  if (originHost === undefined || originHost.name !== host.name) return false;
  const defaultPort = SCHEME_PORTS[url.protocol];
  return (originHost.port || defaultPort) === (host.port || defaultPort);
}

/**
 * `scheme://host[:port]` in canonical form, or undefined for `null` and anything that is not an http(s) origin.
 * A browser's `Origin` never has userinfo, a path, a backslash or white space: `http://evil@127.0.0.1:port`, or a
 * backslash and a path after the port (which the URL parser would reduce to a loopback origin), are refused, not
 * normalised.
 */
export function normalizeOrigin(value: string): string | undefined {
  if (!/^https?:\/\/[^/?#@\\\s]+\/?$/i.test(value)) return undefined;
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
}
