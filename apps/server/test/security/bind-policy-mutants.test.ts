// The bind policy line by line: which hosts count as loopback (names, IPv4 127/8, IPv6 ::1 with or without a zone,
// IPv4-mapped 127/8 and nothing that merely looks like it), and which configurations may bind beyond loopback.
import { describe, expect, it } from 'vitest';
import { buildServer, InsecureBindError } from '../../src/index.js';
import { assertBindAllowed, isLoopbackHost } from '../../src/security/index.js';
import { removeDir, tempDir } from '../helpers.js';

const judged = (hosts: string[]) => hosts.map((host) => ({ host, loopback: isLoopbackHost(host) }));
const all = (hosts: string[], loopback: boolean) => hosts.map((host) => ({ host, loopback }));

describe('isLoopbackHost', () => {
  it('takes localhost and its subdomains (RFC 6761) in any case, and no name that merely ends in it', () => {
    const loopback = ['localhost', 'LOCALHOST', 'app.localhost', 'a.b.Localhost'];
    expect(judged(loopback)).toEqual(all(loopback, true));
    const other = ['notlocalhost', 'localhost.example', 'local', ''];
    expect(judged(other)).toEqual(all(other, false));
  });

  it('takes IPv4 127/8 only', () => {
    expect(judged(['127.0.0.1', '127.255.255.254'])).toEqual(all(['127.0.0.1', '127.255.255.254'], true));
    const other = ['1.2.3.127', '0.127.0.1', '126.0.0.1', '172.0.0.1'];
    expect(judged(other)).toEqual(all(other, false));
  });

  it('takes IPv6 ::1 in any spelling, bracketed or with a zone', () => {
    const loopback = ['::1', '[::1]', '0000::0001', '::1%lo', '[::1%lo]'];
    expect(judged(loopback)).toEqual(all(loopback, true));
    const other = ['::', '::0', '::2', '::1:0', '1::1', 'fe80::1%eth0', '::7f00:1'];
    expect(judged(other)).toEqual(all(other, false));
  });

  it('takes IPv4-mapped addresses of 127/8 and no other mapped address', () => {
    const loopback = [
      '::ffff:127.0.0.1',
      '::FFFF:7F00:1',
      '::ffff:127.255.0.9',
      '::ffff:127.0.1.0',
      '[::ffff:7fff:ffff]',
    ];
    expect(judged(loopback)).toEqual(all(loopback, true));
    // 7.240.0.1, 0.127.0.1 and 7.255.255.255 share the text prefix `::ffff:7f` of the canonical form.
    const other = ['::ffff:7.240.0.1', '::ffff:0.127.0.1', '::ffff:7ff:ffff', '::ffff:10.0.0.1', '::ffff:0:7f00:1'];
    expect(judged(other)).toEqual(all(other, false));
  });
});

describe('assertBindAllowed', () => {
  const refused = (config: { host: string; apiKeys: string[]; insecureNoKey: boolean }) => {
    try {
      assertBindAllowed(config);
      return undefined;
    } catch (error) {
      return error;
    }
  };

  it('refuses a host beyond loopback without a key, naming the host and the ways out', () => {
    const error = refused({ host: '0.0.0.0', apiKeys: [], insecureNoKey: false });
    expect(InsecureBindError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'insecure_bind', host: '0.0.0.0' });
    expect((error as Error).message).toMatch(/^Refusing to listen on 0\.0\.0\.0 without a session API key/);
    for (const wayOut of [
      '--api-key or SESSION_API_KEY',
      'bind 127.0.0.1,',
      '--insecure-no-key (insecureNoKey: true)',
    ]) {
      expect((error as Error).message).toContain(wayOut);
    }
  });

  it('allows any host with one key or more, or with insecureNoKey alone, and loopback without either', () => {
    expect(refused({ host: '0.0.0.0', apiKeys: ['k'], insecureNoKey: false })).toBeUndefined();
    expect(refused({ host: '0.0.0.0', apiKeys: ['k', 'l'], insecureNoKey: false })).toBeUndefined();
    expect(refused({ host: '0.0.0.0', apiKeys: [], insecureNoKey: true })).toBeUndefined();
    expect(refused({ host: '127.0.0.1', apiKeys: [], insecureNoKey: false })).toBeUndefined();
    expect(refused({ host: 'localhost', apiKeys: [], insecureNoKey: false })).toBeUndefined();
  });

  it('is what buildServer applies: a zoned loopback starts, a mapped public address is refused', async () => {
    const dataDir = await tempDir();
    try {
      const built = await buildServer({ host: '::1%lo', port: 0, dataDir, logLevel: 'silent' });
      await built.close();
      await expect(buildServer({ host: '::ffff:7.240.0.1', port: 0, dataDir, logLevel: 'silent' })).rejects.toSatisfy(
        (error) => InsecureBindError.isInstance(error),
      );
    } finally {
      await removeDir(dataDir);
    }
  });
});
