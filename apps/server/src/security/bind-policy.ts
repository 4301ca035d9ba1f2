import { isIP } from 'node:net';
import { InsecureBindError } from './insecure-bind-error.js';

/** Whether `host` is a loopback address or `localhost` (IPv4 127/8, IPv6 ::1, IPv4-mapped loopback). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) {
    const canonical = new URL(`http://[${bare}]`).hostname;
    return canonical === '[::1]' || canonical.startsWith('[::ffff:7f');
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
