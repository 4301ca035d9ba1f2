import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer, waitForIdle } from './helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

type Info = Record<string, unknown>;

async function events(id: string): Promise<Record<string, unknown>[]> {
  const page = await server.call('GET', `/api/conversations/${id}/events/search?limit=100`);
  return (page.json as { items: Record<string, unknown>[] }).items;
}

describe('hook_config in the create body', () => {
  it('runs the hooks, records HookExecutionEvents and shows the config in ConversationInfo', async () => {
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo should-not-run' } }] },
      finishReply('blocked, giving up'),
    );
    const created = await server.call(
      'POST',
      '/api/conversations',
      createRequest(server.llm, {
        hook_config: {
          PreToolUse: [
            { matcher: 'terminal', hooks: [{ type: 'command', command: 'echo "no terminal today" >&2; exit 2' }] },
          ],
        },
        initial_message: { content: 'Run something' },
      }),
    );
    expect(created.status).toBe(201);
    const info = created.json as Info;
    expect(info.hook_config).toMatchObject({
      pre_tool_use: [{ matcher: 'terminal', hooks: [{ type: 'command', timeout: 60 }] }],
    });
    const id = info.id as string;
    expect((await waitForIdle(server, id)).execution_status).toBe('finished');
    const all = await events(id);
    expect(all.find((event) => event.kind === 'HookExecutionEvent')).toMatchObject({
      source: 'hook',
      hook_event_type: 'PreToolUse',
      blocked: true,
      exit_code: 2,
    });
    expect(all.find((event) => event.kind === 'UserRejectObservation')).toMatchObject({
      rejection_source: 'hook',
      rejection_reason: 'no terminal today',
    });
  });

  it('refuses an invalid hook_config with 422 and writes nothing', async () => {
    const refused = await server.call(
      'POST',
      '/api/conversations',
      createRequest(server.llm, { hook_config: { NotAHook: [] } }),
    );
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.json)).toContain("unknown event type 'NotAHook'");
  });
});

describe('sub-agents', () => {
  it('the delegate tool runs a child conversation listed in sub_conversation_ids', async () => {
    server.llm.push(
      { toolCalls: [{ name: 'delegate', arguments: { command: 'spawn', ids: ['scout'] } }] },
      { toolCalls: [{ name: 'delegate', arguments: { command: 'delegate', tasks: { scout: 'Look around' } } }] },
      finishReply('nothing to see'),
      finishReply('The scout found nothing.'),
    );
    const request = createRequest(server.llm, { initial_message: { content: 'Send a scout' } });
    (request.agent as { tools: unknown[] }).tools.push({ name: 'DelegateTool' });
    const created = await server.call('POST', '/api/conversations', request);
    expect(created.status).toBe(201);
    const id = (created.json as Info).id as string;
    const info = await waitForIdle(server, id);
    expect(info.execution_status).toBe('finished');
    const fetched = (await server.call('GET', `/api/conversations/${id}`)).json as Info;
    expect(fetched.sub_conversation_ids).toHaveLength(1);
    const observation = (await events(id)).find(
      (event) =>
        event.kind === 'ObservationEvent' &&
        event.tool_name === 'delegate' &&
        JSON.stringify(event).includes('Results'),
    );
    expect(JSON.stringify(observation)).toContain('1. Agent scout: nothing to see');
  });
});

describe('the workspace tools by name', () => {
  it('apply_patch, glob and grep (registry or class names) run in the conversation workspace', async () => {
    server.llm.push(
      {
        toolCalls: [
          {
            name: 'apply_patch',
            arguments: { patch: '*** Begin Patch\n*** Add File: notes.md\n+hello\n*** End Patch' },
          },
        ],
      },
      { toolCalls: [{ name: 'glob', arguments: { pattern: '*.md' } }] },
      { toolCalls: [{ name: 'grep', arguments: { pattern: 'hello' } }] },
      { toolCalls: [{ name: 'glob', arguments: { pattern: '*', path: '/etc' } }] },
      finishReply('done'),
    );
    const request = createRequest(server.llm, { initial_message: { content: 'Write notes' } });
    (request.agent as { tools: unknown[] }).tools.push({ name: 'apply_patch' }, { name: 'GlobTool' }, { name: 'grep' });
    const created = await server.call('POST', '/api/conversations', request);
    expect(created.status).toBe(201);
    const id = (created.json as Info).id as string;
    expect((await waitForIdle(server, id)).execution_status).toBe('finished');
    const observations = (await events(id))
      .filter((event) => event.kind === 'ObservationEvent')
      .map((event) => event.observation as Record<string, unknown>);
    expect(observations.map((observation) => observation.kind)).toEqual([
      'ApplyPatchObservation',
      'GlobObservation',
      'GrepObservation',
      'GlobObservation',
      'FinishObservation',
    ]);
    expect(observations[0]).toMatchObject({ is_error: false, message: 'Done!' });
    expect(((observations[1]?.files ?? []) as string[]).map((file) => file.split('/').pop())).toEqual(['notes.md']);
    expect(((observations[2]?.matches ?? []) as string[]).map((file) => file.split('/').pop())).toEqual(['notes.md']);
    // A directory outside the conversation's workspace is refused.
    expect(observations[3]).toMatchObject({ is_error: true, files: [] });
    expect(JSON.stringify(observations[3]?.content)).toContain('outside the workspace');
  });
});
