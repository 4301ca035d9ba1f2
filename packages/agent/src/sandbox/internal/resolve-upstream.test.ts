import { describe, expect, it } from 'vitest';
import { resolveUpstream } from './resolve-upstream.js';

const answers =
  (...addresses: string[]) =>
  async () =>
    addresses.map((address) => ({ address }));

describe('resolveUpstream', () => {
  it('connects to the address a name resolves to, resolved once', async () => {
    expect(await resolveUpstream('registry.example', { resolve: answers('93.184.216.34', '2606:2800::1') })).toEqual({
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
      '::ffff:a9fe:a9fe',
    ]) {
      for (const resolve of [answers('93.184.216.34', local), answers(local, '93.184.216.34')]) {
        const resolved = await resolveUpstream('evil.example', { resolve });
        expect(resolved, local).toEqual({ refused: expect.stringContaining(`evil.example resolves to ${local}, `) });
      }
      // Not even with private networks admitted: the metadata service and the server's loopback are never a name's.
      const admitted = await resolveUpstream('evil.example', { resolve: answers(local), allowPrivateNetworks: true });
      expect(admitted, local).toEqual({
        refused: expect.stringContaining('reached only by an allowlist entry naming it'),
      });
    }
  });

  it('refuses a name that resolves into a private network, saying how to admit one', async () => {
    for (const internal of ['10.0.0.1', '172.16.5.4', '192.168.1.1', '100.64.0.1', 'fd00::1', '::ffff:a00:1']) {
      const resolved = await resolveUpstream('evil.example', { resolve: answers('93.184.216.34', internal) });
      expect(resolved, internal).toEqual({
        refused: expect.stringMatching(
          new RegExp(`^evil\\.example resolves to ${internal.replace(/\./g, '\\.')}, .*allowPrivateNetworks: true`),
        ),
      });
    }
  });

  it('admits a name that resolves into a private network where the allowlist allows private networks', async () => {
    expect(
      await resolveUpstream('db.internal', { resolve: answers('10.0.0.7', 'fd00::7'), allowPrivateNetworks: true }),
    ).toEqual({ address: '10.0.0.7' });
    expect(await resolveUpstream('db.internal', { resolve: answers('10.0.0.7'), allowPrivateNetworks: false })).toEqual(
      { refused: expect.stringContaining('10.0.0.7') },
    );
  });

  it('lets an entry naming an address reach it: an IP literal, or localhost', async () => {
    const never = async () => {
      throw new Error('not resolved');
    };
    expect(await resolveUpstream('127.0.0.1', { resolve: never })).toEqual({ address: '127.0.0.1' });
    expect(await resolveUpstream('10.0.0.5', { resolve: never })).toEqual({ address: '10.0.0.5' });
    expect(await resolveUpstream('::1', { resolve: never })).toEqual({ address: '::1' });
    expect(await resolveUpstream('localhost', { resolve: never })).toEqual({ address: 'localhost' });
  });
});
