import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses that name this machine or its link rather than a host out there: loopback (the server itself, its
 * database, everything it listens on locally), link-local (169.254.169.254, the cloud metadata service and its
 * credentials), unspecified and multicast.
 */
const LOCAL_ADDRESSES = new BlockList();
LOCAL_ADDRESSES.addSubnet('127.0.0.0', 8, 'ipv4');
LOCAL_ADDRESSES.addSubnet('0.0.0.0', 8, 'ipv4');
LOCAL_ADDRESSES.addSubnet('169.254.0.0', 16, 'ipv4');
LOCAL_ADDRESSES.addSubnet('224.0.0.0', 4, 'ipv4');
LOCAL_ADDRESSES.addAddress('::1', 'ipv6');
LOCAL_ADDRESSES.addAddress('::', 'ipv6');
LOCAL_ADDRESSES.addSubnet('fe80::', 10, 'ipv6');
LOCAL_ADDRESSES.addSubnet('ff00::', 8, 'ipv6');

/** Whether `address` (an IP literal) is one of this machine's or its link's (an IPv4-mapped IPv6 one included). */
export function isLocalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined) return LOCAL_ADDRESSES.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 0) return false;
  return LOCAL_ADDRESSES.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Where the proxy connects for an admitted `host`: the address it resolves to, resolved once here (so that a
 * second answer, a DNS rebinding, cannot differ from the one checked). A name that resolves to a local address
 * (`isLocalAddress`) is refused: an allowlist entry `*.example.com` must not become the server's own loopback
 * because someone controls a record under it. Such an address is reached only by naming it, as an IP literal
 * entry (`127.0.0.1:8080`) or `localhost`.
 */
export async function resolveUpstream(
  host: string,
  resolve: (host: string) => Promise<readonly { address: string }[]> = (name) =>
    lookup(name, { all: true, verbatim: true }),
): Promise<{ address: string } | { refused: string }> {
  if (isIP(host) !== 0 || host === 'localhost') return { address: host };
  const addresses = await resolve(host);
  const local = addresses.find((entry) => isLocalAddress(entry.address));
  if (local !== undefined)
    return {
      refused: `${host} resolves to ${local.address}, an address of this machine or its link, reached only by an allowlist entry naming it`,
    };
  const first = addresses[0];
  if (first === undefined) return { refused: `${host} resolves to no address` };
  return { address: first.address };
}
