import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, createRequest, removeDir, startTestServer, type TestServer } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

type Detail = { detail: { loc: unknown[]; msg: string }[] };

describe('create body fields', () => {
  it('refuses hook_config inside agent (it would be ignored and the blocked command would run)', async () => {
    const request = createRequest(server.llm);
    const hooks = { PreToolUse: [{ matcher: 'terminal', hooks: [{ command: 'exit 2' }] }] };
    (request.agent as Record<string, unknown>).hook_config = hooks;
    const { status, json } = await server.call('POST', '/api/conversations', request);
    expect(status).toBe(422);
    const messages = (json as Detail).detail.map((entry) => entry.msg).join('\n');
    expect(messages).toContain("Unknown field 'agent.hook_config': hook_config belongs at the top level");
  });

  it('refuses an unknown top-level field, naming it', async () => {
    const { status, json } = await server.call('POST', '/api/conversations', {
      ...createRequest(server.llm),
      hooks: {},
    });
    expect(status).toBe(422);
    expect(JSON.stringify(json)).toContain("Unknown field 'hooks': did you mean hook_config?");
  });

  it('refuses the usage id __proto__ naming it (a provider LLM and the offline one), and accepts constructor', async () => {
    const request = createRequest(server.llm);
    const llm = (request.agent as { llm: Record<string, unknown> }).llm;
    llm.usage_id = '__proto__';
    expect(await server.call('POST', '/api/conversations', request)).toEqual({
      status: 400,
      json: { detail: 'agent.llm: The usage id "__proto__" cannot be used: choose another name' },
    });
    const offline = { agent: { llm: { model: 'offline', usage_id: '__proto__' }, tools: [] } };
    expect(await server.call('POST', '/api/conversations', offline)).toMatchObject({
      status: 422,
      json: { detail: [{ loc: ['body'], msg: 'The usage id "__proto__" cannot be used: choose another name' }] },
    });
    llm.usage_id = 'constructor';
    expect((await server.call('POST', '/api/conversations', request)).status).toBe(201);
  });

  it("accepts the reference's own fields, as its Python client sends them", async () => {
    const request = createRequest(server.llm, {
      plugins: null,
      autotitle: true,
      worktree: false,
      agent_settings: null,
    });
    Object.assign(request.agent as Record<string, unknown>, { filter_tools_regex: null, critic: null, kind: 'Agent' });
    const { status } = await server.call('POST', '/api/conversations', request);
    expect(status).toBe(201);
  });
});

describe('update body fields', () => {
  it('refuses an unknown field, naming it, and changes nothing', async () => {
    const id = await createConversation(server, { title: 'before' });
    const { status, json } = await server.call('PATCH', `/api/conversations/${id}`, { titel: 'after', tags: {} });
    expect(status).toBe(422);
    expect(json).toEqual({ detail: [{ type: 'custom', loc: ['body', 'titel'], msg: "Unknown field 'titel'" }] });
    // A field named like an inherited property has no hint either (not Object.prototype's constructor as text).
    const inherited = await server.call('PATCH', `/api/conversations/${id}`, JSON.parse('{"constructor": 1}'));
    expect(inherited.json).toEqual({
      detail: [{ type: 'custom', loc: ['body', 'constructor'], msg: "Unknown field 'constructor'" }],
    });
    expect((await server.call('GET', `/api/conversations/${id}`)).json).toMatchObject({ title: 'before' });
    expect(await server.call('PATCH', `/api/conversations/${id}`, { title: 'after' })).toEqual({
      status: 200,
      json: { success: true },
    });
    expect((await server.call('GET', `/api/conversations/${id}`)).json).toMatchObject({ title: 'after' });
  });
});
