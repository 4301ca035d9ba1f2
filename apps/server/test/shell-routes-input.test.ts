import { rm } from 'node:fs/promises';
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

  it('run a command in the workspace root after it was removed, creating it again', async () => {
    await rm(join(server.dataDir, 'workspaces'), { recursive: true, force: true });
    const ran = await server.call('POST', '/api/bash/execute_bash_command', { command: 'echo here; pwd' });
    expect(ran).toMatchObject({ status: 200, json: { kind: 'BashOutput', exit_code: 0 } });
    expect((ran.json as { stdout: string }).stdout).toContain('here\n');
  });
});
