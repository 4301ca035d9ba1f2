import { isIP } from 'node:net';
import { InsecureBindError } from './insecure-bind-error.js';

/**
 * An IPv4-mapped address in WHATWG canonical form whose IPv4 part is in 127/8: the first group after `ffff`
 * is exactly `7fXX`. A bare prefix test would also take `::ffff:7f0:1` (7.240.0.1) and `::ffff:7f:1` (0.127.0.1).
 */
const MAPPED_LOOPBACK = /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/;

/** Whether `host` is a loopback address or `localhost` (IPv4 127/8, IPv6 ::1, IPv4-mapped loopback). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
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
