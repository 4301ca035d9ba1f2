/** One entry of a network allowlist: `example.com`, `*.example.com`, `127.0.0.1:8080`, `[::1]:8080`. */
export interface HostPattern {
  /** Lower case, without brackets; for a wildcard, the suffix after `*.`. */
  host: string;
  /** `*.example.com`: any subdomain of `example.com` (not `example.com` itself). */
  wildcard: boolean;
  /** Absent: every port. */
  port?: number;
}

const HOST_PART = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/;
const IPV6 = /^[0-9a-f:.]+$/;
/**
 * An IP address as the proxy takes one (`net.isIP`), or wider: dotted IPv4 and anything with a colon (IPv6). Not
 * `net.isIP` itself: this module is loaded with the policy schema, by every process that imports the package.
 */
const IP_ADDRESS = /^(\d{1,3}(\.\d{1,3}){3}|.*:.*)$/;

/** A host as the allowlist compares it: lower case, without brackets or a trailing dot. */
export function normalizeHost(host: string): string {
  const lower = host.toLowerCase();
  const unbracketed = lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
  return unbracketed.endsWith('.') ? unbracketed.slice(0, -1) : unbracketed;
}

/** Parses an allowlist entry; undefined when it is not one (the policy schema reports it). */
export function parseHostPattern(pattern: string): HostPattern | undefined {
  let host = pattern.trim();
  let port: number | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(host);
  if (bracketed !== null) {
    host = bracketed[1] ?? '';
    if (bracketed[2] !== undefined) port = Number.parseInt(bracketed[2], 10);
    if (!IPV6.test(host.toLowerCase())) return undefined;
  } else {
    const colon = host.lastIndexOf(':');
    if (colon !== -1) {
      const portText = host.slice(colon + 1);
      if (!/^\d+$/.test(portText)) return undefined;
      port = Number.parseInt(portText, 10);
      host = host.slice(0, colon);
    }
  }
  if (port !== undefined && (port < 1 || port > 65535)) return undefined;
  const wildcard = host.startsWith('*.');
  const name = normalizeHost(wildcard ? host.slice(2) : host);
  if (bracketed === null && !HOST_PART.test(name)) return undefined;
  return port === undefined ? { host: name, wildcard } : { host: name, wildcard, port };
}

/**
 * Whether a connection to `host`:`port` is admitted by any of `patterns`. A wildcard admits names only, never an IP
 * address: `*.0.1` would otherwise admit `127.0.0.1`, and the proxy connects to an address as given (an address is
 * reached only by an entry naming it).
 */
export function isHostAllowed(patterns: readonly HostPattern[], host: string, port: number): boolean {
  const name = normalizeHost(host);
  return patterns.some((pattern) => {
    if (pattern.port !== undefined && pattern.port !== port) return false;
    return pattern.wildcard ? !IP_ADDRESS.test(name) && name.endsWith(`.${pattern.host}`) : name === pattern.host;
  });
}
