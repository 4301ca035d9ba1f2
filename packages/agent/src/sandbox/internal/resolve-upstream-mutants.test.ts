// The edges of resolveUpstream's rule that resolve-upstream.test.ts leaves: multicast and the unspecified IPv6
// address are this machine's too, a name without an address is refused (not a crash of the proxy), and the
// default resolver is the system's, every answer of it checked.
import { describe, expect, it } from 'vitest';
import { isLocalAddress, resolveUpstream } from './resolve-upstream.js';

const answers =
  (...addresses: string[]) =>
  async () =>
    addresses.map((address) => ({ address }));

describe('resolveUpstream, further', () => {
  it('refuses multicast and unspecified addresses, IPv4 and IPv6', async () => {
    for (const local of ['224.0.0.251', '239.255.255.250', '::', 'ff02::1', 'ff05::1:3', '0.1.2.3']) {
      const resolved = await resolveUpstream('evil.example', answers('93.184.216.34', local));
      expect(resolved, local).toEqual({ refused: expect.stringContaining(local) });
    }
  });

  it('refuses a name that resolves to nothing', async () => {
    expect(await resolveUpstream('empty.example', answers())).toEqual({
      refused: 'empty.example resolves to no address',
    });
  });

  it('takes no host name for an address', () => {
    for (const name of ['localhost', 'registry.example', '']) expect(isLocalAddress(name), name).toBe(false);
    for (const address of ['1.1.1.1', '223.255.255.255', '240.0.0.1', '2001:db8::1'])
      expect(isLocalAddress(address), address).toBe(false);
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
});
