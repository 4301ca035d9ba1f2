import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createRequest,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  tempDir,
  waitFor,
} from './helpers.js';

// A rule's reason is what the model is told of a call it denies: a blank one (whitespace only) is refused in a create
// body, as an empty one is. A meta.json written before that refusal keeps resuming: its blank reason is dropped, so
// the rule denies with the reason that names it.
const servers: TestServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

const rule = (reason: string) => ({
  name: 'no-rm',
  tool: 'terminal',
  arguments: { command: '^rm ' },
  status: 'denied',
  reason,
});

/**
 * Starts a second server on `dataDir`, sends conversation `id` a message that runs it to its end, and answers the
 * rejection reasons its log then holds (the stored rules, as the resumed conversation applies them).
 */
async function rejectionsAfterResume(llm: ScriptedLLMServer, dataDir: string, id: string): Promise<string[]> {
  const second = await startTestServer({ llm, dataDir });
  servers.push(second);
  const sent = await second.call('POST', `/api/conversations/${id}/events`, {
    content: [{ type: 'text', text: 'clean up' }],
    run: true,
  });
  expect(sent.status).toBe(200);
  const managed = await second.built.manager.require(id);
  await waitFor(async () => {
    const info = (await second.call('GET', `/api/conversations/${id}`)).json as { execution_status: string };
    return info.execution_status === 'finished' && !managed.isRunning;
  });
  const rejections = (await second.call('GET', `/api/conversations/${id}/events/search?kind=UserRejectObservation`))
    .json as { items: { rejection_reason: string }[] };
  return rejections.items.map((item) => item.rejection_reason);
}

describe('an approval rule with a blank reason', () => {
  it('is refused in a create body with a 422 naming the rule and its reason', async () => {
    const server = await startTestServer();
    servers.push(server);
    dirs.push(server.dataDir);
    for (const reason of ['', ' ', '\t\n']) {
      const refused = await server.call(
        'POST',
        '/api/conversations',
        createRequest(server.llm, { approval_rules: [rule(reason)] }),
      );
      expect(refused.status, JSON.stringify(reason)).toBe(422);
      expect(refused.json).toMatchObject({ detail: [{ loc: ['body', 'approval_rules', '0', 'reason'] }] });
    }
    const blank = await server.call(
      'POST',
      '/api/conversations',
      createRequest(server.llm, { approval_rules: [rule(' ')] }),
    );
    expect(JSON.stringify(blank.json)).toContain('its reason is blank');
    expect((await server.call('GET', '/api/conversations/count')).json).toBe(0);
  });

  it('still resumes from a meta.json written before, denying with the reason that names the rule', async () => {
    const llm = await startScriptedLLMServer([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'rm -rf build' } }] },
      finishReply('ok, not deleting'),
    ]);
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const first = await startTestServer({ llm, dataDir });
    const created = await first.call(
      'POST',
      '/api/conversations',
      createRequest(llm, { approval_rules: [rule('no')] }),
    );
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    await first.built.close();
    const metaPath = join(dataDir, 'conversations', id.replaceAll('-', ''), 'meta.json');
    const meta = JSON.parse(await readFile(metaPath, 'utf8'));
    await writeFile(metaPath, JSON.stringify({ ...meta, approval_rules: [rule('  ')] }));

    expect(await rejectionsAfterResume(llm, dataDir, id)).toEqual(["Denied by the approval rule 'no-rm'."]);
  });
  it('leaves the stored rules with a reason, or none, as they are when resuming', async () => {
    const llm = await startScriptedLLMServer([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'rm -rf build' } }] },
      finishReply('ok, not deleting'),
    ]);
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const first = await startTestServer({ llm, dataDir });
    const listing = { name: 'ls', tool: 'terminal', arguments: { command: '^ls' }, status: 'approved' };
    const created = await first.call(
      'POST',
      '/api/conversations',
      createRequest(llm, { approval_rules: [listing, rule('the build is kept')] }),
    );
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    await first.built.close();

    expect(await rejectionsAfterResume(llm, dataDir, id)).toEqual(['the build is kept']);
  });
});
