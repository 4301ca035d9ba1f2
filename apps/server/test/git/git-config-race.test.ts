import { appendFile, chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openDefaultSandbox } from '@x/agent';
import { describe, expect, it } from 'vitest';
import { initRepository, query, useGitServer, write } from './git-fixture.js';

// The agent owns the repository and can rewrite `.git/config` while a git route runs. A filter driver it adds after
// the route has looked at the configuration, and before git reads the work tree, must not run either.
const servers = useGitServer();

describe('a filter driver added to the repository configuration while a route runs', () => {
  it('never runs: git reads the configuration as it was when the route opened the repository', async () => {
    let beforeDiff: (() => Promise<void>) | undefined;
    const { server, root } = await servers.start({
      build: {
        openSandbox: async (request) => {
          const sandbox = await openDefaultSandbox(request);
          const prepare = sandbox.prepare.bind(sandbox);
          sandbox.prepare = async (command) => {
            // The agent's write lands between the route's look at the configuration and the diff.
            if (command.args.includes('diff') && beforeDiff !== undefined) {
              await beforeDiff();
              beforeDiff = undefined;
            }
            return prepare(command);
          };
          return sandbox;
        },
      },
    });
    const marker = join(root, 'ran.txt');
    const filter = join(root, 'filter.sh');
    await writeFile(filter, `#!/bin/sh\necho ran >> '${marker}'\ncat\n`);
    await chmod(filter, 0o755);
    const repo = join(root, 'repo');
    await initRepository(repo, { 'a.txt': 'a\n', '.gitattributes': '*.txt filter=late\n' });
    // Same size and a stat that differs from the index: git must read the file, through its filter if it has one.
    await write(repo, 'a.txt', 'b\n');
    beforeDiff = () => appendFile(join(repo, '.git', 'config'), `[filter "late"]\n\tclean = ${filter}\n`);

    const changes = await server.call('GET', query('/api/git/changes', { path: repo, ref: 'HEAD' }));

    expect(beforeDiff).toBeUndefined();
    expect(await readFile(marker, 'utf8').catch(() => 'nothing ran')).toBe('nothing ran');
    expect(changes).toEqual({ status: 200, json: [{ status: 'UPDATED', path: 'a.txt' }] });
  });
});
