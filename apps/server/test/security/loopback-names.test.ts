// Which names the bind policy takes for loopback: `localhost` and names under it in any case, relative or fully
// qualified (`localhost.`), and no name that only starts with or contains them.
import { describe, expect, it } from 'vitest';
import { buildServer, InsecureBindError } from '../../src/index.js';
import { isLoopbackHost } from '../../src/security/index.js';
import { removeDir, tempDir } from '../helpers.js';

const judged = (hosts: string[]) => hosts.map((host) => ({ host, loopback: isLoopbackHost(host) }));
const all = (hosts: string[], loopback: boolean) => hosts.map((host) => ({ host, loopback }));

describe('isLoopbackHost and fully qualified names', () => {
  it('takes localhost with the root label and in any case', () => {
    const loopback = ['localhost.', 'LOCALHOST', 'LOCALHOST.', 'LocalHost.', 'app.localhost.', 'a-b.c_d.LOCALHOST.'];
    expect(judged(loopback)).toEqual(all(loopback, true));
  });

  it('refuses names that only contain localhost or a loopback address, and malformed names', () => {
    const other = [
      'localhost.evil.com',
      'localhost.evil.com.',
      'localhost.localdomain',
      '127.0.0.1.nip.io',
      '127.0.0.1.',
      'localhost..',
      '.localhost',
      'a..localhost',
      '..localhost.',
      'evil.com/localhost',
      'evil.com#.localhost',
      'a b.localhost',
      'localhost:80',
      '.',
    ];
    expect(judged(other)).toEqual(all(other, false));
  });

  it('lets buildServer bind localhost. without a key, and refuses localhost.evil.com', async () => {
    const dataDir = await tempDir();
    try {
      const built = await buildServer({ host: 'localhost.', port: 0, dataDir, logLevel: 'silent' });
      await built.close();
      await expect(buildServer({ host: 'localhost.evil.com', port: 0, dataDir, logLevel: 'silent' })).rejects.toSatisfy(
        (error) => InsecureBindError.isInstance(error),
      );
    } finally {
      await removeDir(dataDir);
    }
  });
});
