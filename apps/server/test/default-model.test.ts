import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { finishReply, removeDir, startTestServer, type TestServer, waitForIdle } from './helpers.js';

// A create body that names no model: the server's default (found in its environment, as `x run` finds it), or
// a 422 when it has none, never a silent run on the offline demo model.
const modelVariables = [
  'X_MODEL',
  'X_PROVIDER',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'ANTHROPIC_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
];
const saved = Object.fromEntries(modelVariables.map((name) => [name, process.env[name]]));

let server: TestServer;
beforeAll(async () => {
  for (const name of modelVariables) delete process.env[name];
  server = await startTestServer();
});
afterEach(() => {
  for (const name of modelVariables) delete process.env[name];
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
  for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
});

const noModelBody = { agent: { llm: {}, tools: [] } };

describe('a create body without a model', () => {
  it('is refused with 422 naming agent.llm.model when the server has no model configured', async () => {
    const { status, json } = await server.call('POST', '/api/conversations', noModelBody);
    expect(status).toBe(422);
    expect(JSON.stringify(json)).toContain('agent.llm.model: the request names no model');
    const list = await server.call('GET', '/api/conversations/search');
    expect((list.json as { items: unknown[] }).items).toEqual([]);
  });

  it('names a handoff agent without a model by its place in the body, a dot in its name kept whole', async () => {
    const { status, json } = await server.call('POST', '/api/conversations', {
      agent: { llm: { model: 'offline' }, tools: [] },
      agents: { 'team.helper': { llm: {}, tools: [] } },
    });
    expect(status).toBe(422);
    const [detail] = (json as { detail: { loc: string[]; msg: string }[] }).detail;
    expect(detail?.loc).toEqual(['body', 'agents', 'team.helper', 'llm', 'model']);
    expect(detail?.msg).toContain('agents.team.helper.llm.model: the request names no model');
  });

  it("runs on the server's default model (X_MODEL and the provider's key and endpoint)", async () => {
    process.env.X_MODEL = 'gpt-default-test';
    process.env.OPENAI_API_KEY = 'sk-default-test';
    process.env.OPENAI_BASE_URL = server.llm.baseURL;
    server.llm.push(finishReply('Done on the default model.'));
    const { status, json } = await server.call('POST', '/api/conversations', {
      ...noModelBody,
      initial_message: { content: [{ type: 'text', text: 'hi' }], run: true },
    });
    expect(status).toBe(201);
    const id = (json as { id: string }).id;
    expect((await waitForIdle(server, id)).execution_status).toBe('finished');
    const final = await server.call('GET', `/api/conversations/${id}/agent_final_response`);
    expect(final.json).toEqual({ response: 'Done on the default model.' });
    expect(server.llm.requests.at(-1)?.model).toBe('gpt-default-test');
  });

  it('still runs the offline model when asked for by name', async () => {
    const { status, json } = await server.call('POST', '/api/conversations', {
      agent: { llm: { model: 'offline' }, tools: [] },
      initial_message: { content: [{ type: 'text', text: 'hi' }], run: true },
    });
    expect(status).toBe(201);
    const id = (json as { id: string }).id;
    expect((await waitForIdle(server, id)).execution_status).toBe('finished');
  });
});
