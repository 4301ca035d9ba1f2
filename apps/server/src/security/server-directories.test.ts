import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverDirectories } from './server-directories.js';

describe('serverDirectories', () => {
  it("names the data directory and its store, x's home, the home directory and the server's install directory", async () => {
    const found = await serverDirectories({
      dataDir: '/srv/my data',
      env: { X_HOME: '/opt/x home' },
      home: '/home/a b',
    });
    expect(found).toEqual(expect.arrayContaining(['/srv/my data', '/srv/my data/conversations', '/opt/x home']));
    expect(found).toContain('/home/a b');
    const installs = await Promise.all(
      found.map((directory) =>
        readFile(join(directory, 'package.json'), 'utf8').then(
          (text) => (JSON.parse(text) as { name?: string }).name,
          () => undefined,
        ),
      ),
    );
    expect(installs).toContain('@x/server');
    expect(found).not.toContain('/');
  });

  it("takes ~/.x for x's home when X_HOME is not set or empty", async () => {
    for (const env of [{}, { X_HOME: '' }]) {
      expect(await serverDirectories({ dataDir: '/srv/d', env, home: '/home/a b' })).toContain('/home/a b/.x');
    }
  });
});
