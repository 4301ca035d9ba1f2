import { isIP } from 'node:net';
import { InsecureBindError } from './insecure-bind-error.js';

/**
 * An IPv4-mapped address in WHATWG canonical form whose IPv4 part is in 127/8: the first group after `ffff`
 * is exactly `7fXX`. A bare prefix test would also take `::ffff:7f0:1` (7.240.0.1) and `::ffff:7f:1` (0.127.0.1).
 */
const MAPPED_LOOPBACK = /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/;

/** A DNS label: letters, digits, `-` and `_`, not empty (`a..localhost` and `.localhost` are not names). */
const LABEL = /^[a-z0-9_-]+$/;

/**
 * Whether `name` (lower case) is `localhost` or a name under it (RFC 6761), written relative or fully qualified
 * with the root's empty label at the end (`localhost.`, `app.localhost.`): the same names. Nothing else ends so
 * (`localhost.example.com`, `127.0.0.1.nip.io` resolve wherever their owner wants).
 */
function isLocalhostName(name: string): boolean {
  const labels = (name.endsWith('.') ? name.slice(0, -1) : name).split('.');
  return labels.at(-1) === 'localhost' && labels.every((label) => LABEL.test(label));
}

/**
 * Whether `host` is a loopback address or `localhost` (IPv4 127/8, IPv6 ::1, IPv4-mapped loopback), in any case and
 * with or without the trailing dot of a fully qualified name. An address with a trailing dot (`127.0.0.1.`) is a
 * name to resolve, not an address, and is refused.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (isLocalhostName(bare)) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) {
    // A zone (`::1%lo`) names the interface, not the address, and the URL parser refuses it.
    const canonical = new URL(`http://[${bare.replace(/%.*$/, '')}]`).hostname;
    return canonical === '[::1]' || MAPPED_LOOPBACK.test(canonical);
  }
  return false;
}

/**
 * A server without session keys may only bind loopback: anything else lets the network run commands on
 * this machine. `insecureNoKey` is the operator's explicit acknowledgement (`--insecure-no-key`).
 */
export function assertBindAllowed(config: { host: string; apiKeys: readonly string[]; insecureNoKey: boolean }): void {
  if (config.apiKeys.length > 0 || config.insecureNoKey || isLoopbackHost(config.host)) return;
  throw new InsecureBindError(config.host);
}
