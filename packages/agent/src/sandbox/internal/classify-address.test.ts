import { describe, expect, it } from 'vitest';
import { classifyAddress } from './classify-address.js';

const scopeOf = (address: string) => classifyAddress(address)?.scope;

describe('classifyAddress', () => {
  it('takes addresses of hosts out there for public, at the edges of the ranges around them too', () => {
    for (const address of [
      '93.184.216.34',
      '1.1.1.1',
      '9.255.255.255',
      '11.0.0.0',
      '172.15.255.255',
      '172.32.0.0',
      '192.167.255.255',
      '192.169.0.0',
      '100.63.255.255',
      '100.128.0.0',
      '126.255.255.255',
      '128.0.0.0',
      '169.253.255.255',
      '169.255.0.0',
      '198.17.255.255',
      '198.20.0.0',
      '223.255.255.255',
      '2606:2800:220:1::1',
      '2001:4860:4860::8888',
      '2001:200::1',
      '2606:4700:1::1',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
    ])
      expect(classifyAddress(address), address).toEqual({ scope: 'public' });
  });

  it('takes private networks and ranges no public host has for private, naming the range', () => {
    for (const [address, range] of [
      ['10.0.0.1', '10.0.0.0/8'],
      ['10.255.255.255', '10.0.0.0/8'],
      ['172.16.0.1', '172.16.0.0/12'],
      ['172.31.255.255', '172.16.0.0/12'],
      ['192.168.1.1', '192.168.0.0/16'],
      ['100.64.0.1', '100.64.0.0/10'],
      ['100.127.255.255', '100.64.0.0/10'],
      ['198.18.0.1', '198.18.0.0/15'],
      ['198.19.255.255', '198.18.0.0/15'],
      ['192.0.0.8', '192.0.0.0/24'],
      ['192.0.2.1', '192.0.2.0/24'],
      ['198.51.100.1', '198.51.100.0/24'],
      ['203.0.113.1', '203.0.113.0/24'],
      ['192.88.99.1', '192.88.99.0/24'],
      ['fd00::1', 'fc00::/7'],
      ['fc12:3456::1', 'fc00::/7'],
      ['fec0::1', 'fec0::/10'],
      ['2001:db8::1', '2001:db8::/32'],
      ['2001:2::1', '2001::/23'],
      ['3fff::1', '3fff::/20'],
      ['64:ff9b:1::a00:1', '64:ff9b:1::/48'],
    ])
      expect(classifyAddress(address as string), address).toEqual({
        scope: 'private',
        range: expect.stringContaining(range as string),
      });
  });

  it('takes this machine, its link, multicast and the reserved for local', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.255.255',
      '0.0.0.0',
      '0.1.2.3',
      '169.254.169.254',
      '224.0.0.251',
      '239.255.255.250',
      '240.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fe80::1',
      'fe80::1%eth0',
      'FE80::1',
      'febf::1',
      'ff02::1',
      '100::1',
      '4000::1',
    ])
      expect(scopeOf(address), address).toBe('local');
  });

  it('sees through every IPv6 form that carries an IPv4 address, dotted or in hex', () => {
    for (const [address, scope] of [
      ['::ffff:10.0.0.1', 'private'],
      ['::ffff:a00:1', 'private'],
      ['::FFFF:A00:1', 'private'],
      ['0:0:0:0:0:ffff:0a00:0001', 'private'],
      ['::ffff:127.0.0.1', 'local'],
      ['::ffff:7f00:1', 'local'],
      ['::ffff:169.254.169.254', 'local'],
      ['::ffff:a9fe:a9fe', 'local'],
      ['::a00:1', 'private'],
      ['::10.0.0.1', 'private'],
      ['::7f00:1', 'local'],
      ['::a9fe:a9fe', 'local'],
      ['64:ff9b::a00:1', 'private'],
      ['64:ff9b::10.0.0.1', 'private'],
      ['64:ff9b::7f00:1', 'local'],
      ['64:ff9b::a9fe:a9fe', 'local'],
      ['2002:a00:1::1', 'private'],
      ['2002:c0a8:101::', 'private'],
      ['2002:7f00:1::1', 'local'],
      ['2002:a9fe:a9fe::', 'local'],
      // Teredo: the client's address inverted (80ff:fffe is 127.0.0.1); never public.
      ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'local'],
      ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'private'],
    ])
      expect(scopeOf(address as string), address).toBe(scope);
  });

  it('names loopback and the unspecified address as such, not as IPv4-compatible forms', () => {
    expect(classifyAddress('::1')).toEqual({ scope: 'local', range: 'loopback, this machine (::1)' });
    expect(classifyAddress('::')).toEqual({ scope: 'local', range: 'unspecified (::)' });
  });

  it('names the carried address and its range', () => {
    expect(classifyAddress('::ffff:a00:1')).toEqual({
      scope: 'private',
      range: 'IPv4-mapped (::ffff:0:0/96) of 10.0.0.1, a private network (10.0.0.0/8)',
    });
    expect(classifyAddress('2002:a9fe:a9fe::')?.range).toBe(
      '6to4 (2002::/16) of 169.254.169.254, link-local, the cloud metadata service among them (169.254.0.0/16)',
    );
  });

  it('takes no host name for an address', () => {
    for (const name of ['localhost', 'registry.example', '', '10.1', '2130706433', '1::2::3'])
      expect(classifyAddress(name), name).toBeUndefined();
  });
});
