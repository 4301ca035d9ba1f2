import { isIP } from 'node:net';

/**
 * Who an address reaches. `public`: a host of the internet. `private`: a network of an organisation (RFC 1918,
 * carrier-grade NAT, IPv6 unique-local and site-local) or a range no public host has (documentation, benchmarking,
 * IETF assignments): reached from the proxy, it is the server's internal network. `local`: this machine, its link
 * (169.254.169.254, the cloud metadata service and its credentials), the unspecified address, multicast and the
 * reserved remainder: never a host an allowlisted name may stand for.
 */
export type AddressScope = 'public' | 'private' | 'local';

export interface AddressClass {
  scope: AddressScope;
  /** What the range is, for a refusal's text: `a private network (10.0.0.0/8)`. Absent for a public address. */
  range?: string;
}

interface Ipv4Range {
  base: number;
  prefix: number;
  scope: Exclude<AddressScope, 'public'>;
  name: string;
}

function ipv4Range(cidr: string, scope: Ipv4Range['scope'], name: string): Ipv4Range {
  const [base = '', prefix = ''] = cidr.split('/');
  return { base: ipv4Number(base), prefix: Number.parseInt(prefix, 10), scope, name: `${name} (${cidr})` };
}

/** IANA's IPv4 special-purpose registry, as far as a host out there is concerned. */
const IPV4_RANGES: readonly Ipv4Range[] = [
  ipv4Range('0.0.0.0/8', 'local', '"this network"'),
  ipv4Range('127.0.0.0/8', 'local', 'loopback, this machine'),
  ipv4Range('169.254.0.0/16', 'local', 'link-local, the cloud metadata service among them'),
  ipv4Range('224.0.0.0/4', 'local', 'multicast'),
  ipv4Range('240.0.0.0/4', 'local', 'reserved and broadcast'),
  ipv4Range('10.0.0.0/8', 'private', 'a private network'),
  ipv4Range('172.16.0.0/12', 'private', 'a private network'),
  ipv4Range('192.168.0.0/16', 'private', 'a private network'),
  ipv4Range('100.64.0.0/10', 'private', 'carrier-grade NAT, a shared private network'),
  ipv4Range('192.0.0.0/24', 'private', 'IETF protocol assignments'),
  ipv4Range('192.0.2.0/24', 'private', 'documentation'),
  ipv4Range('198.51.100.0/24', 'private', 'documentation'),
  ipv4Range('203.0.113.0/24', 'private', 'documentation'),
  ipv4Range('198.18.0.0/15', 'private', 'benchmarking'),
  ipv4Range('192.88.99.0/24', 'private', 'the 6to4 relay anycast'),
];

/** A dotted IPv4 address (already checked by `isIP`) as an unsigned 32-bit number. */
function ipv4Number(address: string): number {
  return address.split('.').reduce((number, part) => number * 256 + Number.parseInt(part, 10), 0);
}

function classifyIpv4Number(number: number): AddressClass {
  const range = IPV4_RANGES.find(
    ({ base, prefix }) => Math.floor(number / 2 ** (32 - prefix)) === base / 2 ** (32 - prefix),
  );
  return range === undefined ? { scope: 'public' } : { scope: range.scope, range: range.name };
}

/** The eight 16-bit groups of an IPv6 address already checked by `isIP` (a dotted IPv4 tail included). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted !== undefined) {
    const number = ipv4Number(dotted);
    text = `${text.slice(0, -dotted.length)}${Math.floor(number / 0x10000).toString(16)}:${(number % 0x10000).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].map((group) => Number.parseInt(group, 16));
}

/** An IPv4 address carried in an IPv6 one: `embedded` names the form for the refusal's text. */
function embedded(form: string, high: number, low: number): AddressClass {
  const inner = classifyIpv4Number(high * 0x10000 + low);
  if (inner.scope === 'public') return inner;
  const dotted = [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  return { scope: inner.scope, range: `${form} of ${dotted}, ${inner.range}` };
}

function classifyIpv6(groups: readonly number[]): AddressClass {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const upper80Zero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (upper80Zero && g5 === 0 && g6 === 0 && g7 <= 1)
    return { scope: 'local', range: g7 === 0 ? 'unspecified (::)' : 'loopback, this machine (::1)' };
  // Forms that carry an IPv4 address: each is as far from the internet as the address it carries.
  if (upper80Zero && g5 === 0xffff) return embedded('IPv4-mapped (::ffff:0:0/96)', g6, g7);
  if (upper80Zero && g5 === 0) return embedded('IPv4-compatible (::/96)', g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0)
    return embedded('NAT64 (64:ff9b::/96)', g6, g7);
  if (g0 === 0x2002) return embedded('6to4 (2002::/16)', g1, g2);
  // Teredo carries the client's address inverted; a Teredo address is as far as that, and never public.
  if (g0 === 0x2001 && g1 === 0) {
    const client = embedded('Teredo (2001::/32)', g6 ^ 0xffff, g7 ^ 0xffff);
    return client.scope === 'local' ? client : { scope: 'private', range: 'Teredo (2001::/32)' };
  }
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return { scope: 'private', range: 'local-use NAT64 (64:ff9b:1::/48)' };
  if ((g0 & 0xfe00) === 0xfc00) return { scope: 'private', range: 'a unique-local private network (fc00::/7)' };
  if ((g0 & 0xffc0) === 0xfec0) return { scope: 'private', range: 'a site-local private network (fec0::/10)' };
  if ((g0 & 0xffc0) === 0xfe80) return { scope: 'local', range: 'link-local (fe80::/10)' };
  if ((g0 & 0xff00) === 0xff00) return { scope: 'local', range: 'multicast (ff00::/8)' };
  if (g0 === 0x2001 && g1 < 0x200) return { scope: 'private', range: 'IETF protocol assignments (2001::/23)' };
  if (g0 === 0x2001 && g1 === 0xdb8) return { scope: 'private', range: 'documentation (2001:db8::/32)' };
  if ((g0 & 0xfff0) === 0x3ff0) return { scope: 'private', range: 'documentation (3fff::/20)' };
  // Global unicast is 2000::/3; the rest is unassigned or reserved, and reaches no public host.
  if ((g0 & 0xe000) === 0x2000) return { scope: 'public' };
  return { scope: 'local', range: 'reserved, outside global unicast (2000::/3)' };
}

/** Who `address` (an IP literal; an IPv6 zone `%eth0` is ignored) reaches; undefined for what is not one. */
export function classifyAddress(address: string): AddressClass | undefined {
  const unzoned = address.replace(/%.*$/, '').toLowerCase();
  const family = isIP(unzoned);
  if (family === 4) return classifyIpv4Number(ipv4Number(unzoned));
  if (family === 6) return classifyIpv6(ipv6Groups(unzoned));
  return undefined;
}
