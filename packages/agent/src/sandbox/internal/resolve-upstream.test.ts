import { describe, expect, it } from 'vitest';
import { isLocalAddress, resolveUpstream } from './resolve-upstream.js';

const answers =
  (...addresses: string[]) =>
  async () =>
    addresses.map((address) => ({ address }));

describe('resolveUpstream', () => {
  it('connects to the address a name resolves to, resolved once', async () => {
    expect(await resolveUpstream('registry.example', answers('93.184.216.34', '2606:2800::1'))).toEqual({
      address: '93.184.216.34',
    });
  });

  it("refuses a name that resolves to this machine's or its link's address, among others or alone", async () => {
    for (const local of [
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '169.254.169.254',
      'fe80::1',
      '0.0.0.0',
      '::ffff:127.0.0.1',
    ]) {
      const resolved = await resolveUpstream('evil.example', answers('93.184.216.34', local));
      expect(resolved, local).toEqual({ refused: expect.stringContaining(local) });
    }
  });

  it('lets an entry naming a local address reach it: an IP literal, or localhost', async () => {
    const never = async () => {
      throw new Error('not resolved');
    };
    expect(await resolveUpstream('127.0.0.1', never)).toEqual({ address: '127.0.0.1' });
    expect(await resolveUpstream('::1', never)).toEqual({ address: '::1' });
    expect(await resolveUpstream('localhost', never)).toEqual({ address: 'localhost' });
  });

  it('knows private networks from local ones', () => {
    for (const address of ['10.0.0.1', '192.168.1.1', '172.16.0.1', '93.184.216.34', '2606:2800::1'])
      expect(isLocalAddress(address), address).toBe(false);
  });
});
