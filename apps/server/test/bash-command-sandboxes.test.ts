import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openDefaultSandbox, type SandboxOpener } from '@x/agent';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer } from './helpers.js';

// Which sandbox a command of the shell route (/api/bash) runs in: the one of the workspace root holding its cwd,
// opened on first use and opened again after a failed attempt.
const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    await server.stop();
    await removeDir(server.dataDir);
  }
});

async function start(openSandbox?: SandboxOpener): Promise<TestServer> {
  const server = await startTestServer(openSandbox === undefined ? {} : { build: { openSandbox } });
  servers.push(server);
  return server;
}

describe('the sandbox of a shell command', () => {
  it('is the whole workspace root, also from a directory whose name starts with two dots', async () => {
    const server = await start();
    const root = join(server.dataDir, 'workspaces');
    for (const name of ['plain', '..cache']) {
      await mkdir(join(root, name), { recursive: true });
      const ran = await server.call('POST', '/api/bash/execute_bash_command', {
        command: `echo from-${name} > ../written-from-${name}.txt`,
        cwd: join(root, name),
      });
      expect({ name, status: ran.status, json: ran.json }).toMatchObject({
        name,
        status: 200,
        json: { kind: 'BashOutput', exit_code: 0 },
      });
      expect(await readFile(join(root, `written-from-${name}.txt`), 'utf8')).toBe(`from-${name}\n`);
    }
  });

  it('that could not be opened is opened again for the next command', async () => {
    let attempts = 0;
    const server = await start(async (options) => {
      attempts += 1;
      if (attempts === 1) throw new Error('bubblewrap is busy');
      return openDefaultSandbox(options);
    });
    const refused = await server.call('POST', '/api/bash/execute_bash_command', { command: 'echo first' });
    expect(refused).toMatchObject({ status: 200, json: { exit_code: -1 } });
    expect((refused.json as { stderr: string }).stderr).toBe('Could not start the command: bubblewrap is busy');

    const ran = await server.call('POST', '/api/bash/execute_bash_command', { command: 'echo second' });
    expect(ran).toMatchObject({ status: 200, json: { exit_code: 0, stdout: 'second\n', stderr: '' } });
    expect(attempts).toBe(2);
  });
});
