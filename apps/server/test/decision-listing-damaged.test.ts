// GET /api/conversations/{id}/decisions is an audit listing: a record file that does not parse is left out (named in
// a warning), never a 500 for the others; a folder that cannot be listed is a failure, never an empty listing.
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, removeDir, startTestServer, type TestServer } from './helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

const record = (actionId: string, decidedAt: string) => ({
  action_id: actionId,
  tool_name: 'terminal',
  tool_call_id: `call-${actionId}`,
  decision: { kind: 'deny', reason: `not ${actionId}` },
  principal: 'local',
  decided_at: decidedAt,
});

async function decisionsDir(id: string): Promise<string> {
  // The conversation's events folder exists once it is opened (its first events are written).
  expect((await server.call('GET', `/api/conversations/${id}/decisions`)).status).toBe(200);
  return join(server.dataDir, 'conversations', id.replace(/-/g, ''), 'events', '.decisions');
}

describe('the decision listing', () => {
  it('leaves out a record that is not JSON or not a record, and lists the others by time', async () => {
    const id = await createConversation(server);
    const dir = await decisionsDir(id);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'b.json'), `${JSON.stringify(record('b', '2026-01-01T00:00:01.000Z'))}\n`);
    await writeFile(join(dir, 'a.json'), `${JSON.stringify(record('a', '2026-01-01T00:00:02.000Z'))}\n`);
    await writeFile(join(dir, 'torn.json'), '{"action_id": "torn", "tool_na');
    await writeFile(join(dir, 'other.json'), JSON.stringify({ action_id: 'other' }));
    const listed = await server.call('GET', `/api/conversations/${id}/decisions`);
    expect(listed).toEqual({
      status: 200,
      json: { decisions: [record('b', '2026-01-01T00:00:01.000Z'), record('a', '2026-01-01T00:00:02.000Z')] },
    });
  });

  it('fails, rather than answer no decisions, when the records cannot be listed', async () => {
    const id = await createConversation(server);
    const dir = await decisionsDir(id);
    await rm(dir, { recursive: true, force: true });
    // A link where the folder of records belongs: the store refuses to follow it, as an unreachable store fails.
    await mkdir(join(server.dataDir, 'elsewhere'), { recursive: true });
    await symlink(join(server.dataDir, 'elsewhere'), dir);
    const listed = await server.call('GET', `/api/conversations/${id}/decisions`);
    expect(listed.status).toBeGreaterThanOrEqual(500);
  });
});
