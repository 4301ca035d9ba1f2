import { mkdir, readdir, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer } from './helpers.js';

// What the shell routes (/api/bash) refuse before running anything, and what they answer at their edges.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

describe('the shell routes', () => {
  it('refuse an empty command, no time to run and a page of no events with a 422 naming the field', async () => {
    for (const route of ['/api/bash/execute_bash_command', '/api/bash/start_bash_command']) {
      const empty = await server.call('POST', route, { command: '' });
      expect({ route, status: empty.status }).toEqual({ route, status: 422 });
      expect(JSON.stringify(empty.json)).toContain('command');
    }
    const noTime = await server.call('POST', '/api/bash/execute_bash_command', { command: 'true', timeout: 0 });
    expect(noTime.status).toBe(422);
    expect(JSON.stringify(noTime.json)).toContain('timeout');
    const none = await server.call('GET', '/api/bash/bash_events/search?limit=0');
    expect(none.status).toBe(422);
    expect(JSON.stringify(none.json)).toContain('limit');
  });

  it('refuse a command once the workspace root was removed (409 workspace_gone), and do not make it again', async () => {
    const root = join(server.dataDir, 'workspaces');
    await rm(root, { recursive: true, force: true });
    const refused = await server.call('POST', '/api/bash/execute_bash_command', { command: 'echo here; pwd' });
    expect(refused).toEqual({
      status: 409,
      json: { detail: `The server's workspace root ${root} has been deleted`, code: 'workspace_gone' },
    });
    await expect(stat(root)).rejects.toThrow('ENOENT');
    // Made again by whoever removed it, the root serves commands as before.
    await mkdir(root);
    const ran = await server.call('POST', '/api/bash/execute_bash_command', { command: 'echo here; pwd' });
    expect(ran).toMatchObject({ status: 200, json: { kind: 'BashOutput', exit_code: 0 } });
    expect((ran.json as { stdout: string }).stdout).toContain('here\n');
  });

  it('run a command only in a directory of the workspace root: not through a link out, not in a file', async () => {
    const root = join(server.dataDir, 'workspaces');
    const outside = join(server.dataDir, 'outside');
    await mkdir(join(root, 'project', 'sub'), { recursive: true });
    await mkdir(outside, { recursive: true });
    await writeFile(join(root, 'project', 'file.txt'), 'a file');
    await symlink(outside, join(root, 'project', 'escape'));
    const run = (cwd: string) =>
      server.call('POST', '/api/bash/execute_bash_command', { command: 'touch ran-here; pwd', cwd });

    const viaLink = await run(join(root, 'project', 'escape'));
    expect(viaLink.status).toBe(403);
    const inFile = await run(join(root, 'project', 'file.txt'));
    expect(inFile.status).toBe(400);
    expect(JSON.stringify(inFile.json)).toContain(`cwd '${join(root, 'project', 'file.txt')}' is not a directory`);
    expect((await run('project/sub')).status).toBe(400);
    expect(await readdir(outside)).toEqual([]);

    const inside = await run(join(root, 'project', 'sub'));
    expect(inside).toMatchObject({ status: 200, json: { exit_code: 0 } });
    expect((inside.json as { stdout: string }).stdout).toBe(`${await realpath(join(root, 'project', 'sub'))}\n`);
    expect(await readdir(join(root, 'project', 'sub'))).toEqual(['ran-here']);
  });
});
