import { afterAll, describe, expect, it } from 'vitest';
import { finishReply, removeDir, startTestServer, type TestServer, tempDir, waitForIdle } from './helpers.js';

const dirs: string[] = [];
const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const dir of dirs) await removeDir(dir);
});

type Request = { model: string; messages: { role: string; content: unknown }[] };

describe('agents in the create body (handoff on the server)', () => {
  it('passes control with transfer_to_agent to a named agent, and keeps it across a server restart', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    // Closed by hand below; its scripted model serves the second server too, which stops it.
    const first = await startTestServer({ dataDir });
    const llm = (model: string) => ({ model, base_url: first.llm.baseURL, api_key: 'sk-test' });
    first.llm.push(
      { toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: 'reviewer', reason: 'needs a review' } }] },
      finishReply('Reviewed.'),
    );
    const created = await first.call('POST', '/api/conversations', {
      agent: { llm: llm('gpt-writer'), tools: [] },
      agents: { reviewer: { llm: llm('gpt-reviewer'), tools: [], system_prompt: 'You review changes.' } },
      initial_message: { content: [{ type: 'text', text: 'write and review' }], run: true },
    });
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    expect((await waitForIdle(first, id)).execution_status).toBe('finished');
    const requests = first.llm.requests as Request[];
    expect(requests.map((request) => request.model)).toEqual(['gpt-writer', 'gpt-reviewer']);
    expect(JSON.stringify(requests[1]?.messages[0])).toContain('You review changes.');
    const meta = await first.call('GET', `/api/conversations/${id}`);
    expect(JSON.stringify(meta.json)).not.toContain('sk-test');
    await first.built.close();

    // A new server on the same data: the conversation resumes with the agent in control.
    const second = await startTestServer({ dataDir, llm: first.llm });
    servers.push(second);
    first.llm.push(finishReply('Still the reviewer.'));
    const sent = await second.call('POST', `/api/conversations/${id}/events`, {
      content: [{ type: 'text', text: 'again' }],
      run: true,
    });
    expect(sent.status).toBe(200);
    await waitForIdle(second, id);
    expect((first.llm.requests.at(-1) as Request).model).toBe('gpt-reviewer');
  });

  it('refuses a bad agent in `agents`, naming it', async () => {
    const server = await startTestServer();
    servers.push(server);
    dirs.push(server.dataDir);
    const { status, json } = await server.call('POST', '/api/conversations', {
      agent: { llm: { model: 'gpt-test', base_url: server.llm.baseURL, api_key: 'k' }, tools: [] },
      agents: { helper: { llm: { model: 'gpt-test', base_url: server.llm.baseURL, api_key: 'k' }, colour: 'red' } },
    });
    expect(status).toBe(422);
    expect(JSON.stringify(json)).toContain('colour');
  });
});
