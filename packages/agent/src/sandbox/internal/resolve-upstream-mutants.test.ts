// The edges of resolveUpstream's rule that resolve-upstream.test.ts leaves: multicast and the unspecified IPv6
// address are this machine's too, a name without an address is refused (not a crash of the proxy), and the
// default resolver is the system's, every answer of it checked.
import { describe, expect, it } from 'vitest';
import { resolveUpstream } from './resolve-upstream.js';

const answers =
  (...addresses: string[]) =>
  async () =>
    addresses.map((address) => ({ address }));

describe('resolveUpstream, further', () => {
  it('refuses multicast, unspecified and reserved addresses, IPv4 and IPv6', async () => {
    for (const local of ['224.0.0.251', '239.255.255.250', '::', 'ff02::1', 'ff05::1:3', '0.1.2.3', '240.0.0.1']) {
      const resolved = await resolveUpstream('evil.example', { resolve: answers('93.184.216.34', local) });
      expect(resolved, local).toEqual({ refused: expect.stringContaining(local) });
    }
  });

  it('refuses a name that resolves to nothing, or to what is not an address', async () => {
    expect(await resolveUpstream('empty.example', { resolve: answers() })).toEqual({
      refused: 'empty.example resolves to no address',
    });
    expect(await resolveUpstream('odd.example', { resolve: answers('not-an-address') })).toEqual({
      refused: expect.stringContaining('odd.example resolves to not-an-address'),
    });
  });

  it('resolves with the system resolver by default: a loopback name of /etc/hosts is refused', async () => {
    const { readFileSync } = await import('node:fs');
    const entry = readFileSync('/etc/hosts', 'utf8')
      .split('\n')
      .map((line) => line.replace(/#.*/, '').trim().split(/\s+/))
      .map(([address, ...names]) => ({ address, name: names.find((name) => name !== 'localhost' && name !== '') }))
      .find(({ address, name }) => /^(127\.|::1$)/.test(address ?? '') && name !== undefined);
    // Every stock /etc/hosts has one (Debian: the host's name on 127.0.1.1; containers: ip6-localhost or their own).
    expect(entry, 'a name other than localhost for a loopback address in /etc/hosts').toBeDefined();
    const { address, name } = entry as { address: string; name: string };
    expect(await resolveUpstream(name)).toEqual({ refused: expect.stringContaining(address) });
  });

  it('resolves numeric names with the system resolver and checks what they stand for', async () => {
    // getaddrinfo reads `10.1` and `167772161` as 10.0.0.1: a name the allowlist admits (`*.1`) is not an address.
    for (const name of ['10.1', '167772161'])
      expect(await resolveUpstream(name), name).toEqual({ refused: expect.stringContaining('10.0.0.1') });
    expect(await resolveUpstream('10.1', { allowPrivateNetworks: true })).toEqual({ address: '10.0.0.1' });
  });
});
