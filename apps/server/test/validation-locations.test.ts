import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, removeDir, startTestServer, type TestServer } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

type Detail = { detail: { loc: unknown[]; msg: string }[] };

/** The `loc` of each 422 entry: where the client must look, as FastAPI reports it. */
function locations(json: unknown): unknown[][] {
  return (json as Detail).detail.map((entry) => entry.loc);
}

/** A handoff target that can run (its model served by the scripted server), with `extra`. */
function helperAgent(extra: Record<string, unknown>): Record<string, unknown> {
  return { llm: { model: 'gpt-test', base_url: server.llm.baseURL, api_key: 'k' }, tools: [], ...extra };
}

function withAgent(extra: Record<string, unknown>): Record<string, unknown> {
  const request = createRequest(server.llm);
  Object.assign(request.agent as Record<string, unknown>, extra);
  return request;
}

describe('where a 422 says the problem is', () => {
  it('a query datetime names the query parameter, not the body', async () => {
    const created = await server.call('POST', '/api/conversations', createRequest(server.llm));
    const id = (created.json as { id: string }).id;
    for (const [path, field] of [
      [`/api/conversations/${id}/events/search?timestamp__gte=notadate`, 'timestamp__gte'],
      [`/api/conversations/${id}/events/count?timestamp__lt=2020-13-45`, 'timestamp__lt'],
    ] as const) {
      const { status, json } = await server.call('GET', path);
      expect(status).toBe(422);
      expect(locations(json)).toEqual([['query', field]]);
      expect((json as Detail).detail[0]!.msg).toContain(`${field}: not an ISO 8601 datetime`);
    }
  });

  it('a bad condenser, hook_config, mcp_config, agent_context and a named agent', async () => {
    const cases: [Record<string, unknown>, unknown[]][] = [
      [withAgent({ condenser: { kind: 'Nope' } }), ['body', 'agent', 'condenser']],
      [{ ...createRequest(server.llm), hook_config: { Nope: [] } }, ['body', 'hook_config']],
      [withAgent({ mcp_config: { mcpServers: { a: { command: '' } } } }), ['body', 'agent', 'mcp_config']],
      [withAgent({ agent_context: { system_message_suffix: 5 } }), ['body', 'agent', 'agent_context']],
      [
        { ...createRequest(server.llm), agents: { helper: helperAgent({ condenser: { kind: 'Nope' } }) } },
        ['body', 'agents', 'helper', 'condenser'],
      ],
      [
        {
          ...createRequest(server.llm),
          agents: { helper: helperAgent({ mcp_config: { mcpServers: { a: { command: '' } } } }) },
        },
        ['body', 'agents', 'helper', 'mcp_config'],
      ],
    ];
    for (const [body, loc] of cases) {
      const { status, json } = await server.call('POST', '/api/conversations', body);
      expect({ status, loc: status === 422 ? locations(json) : json }).toEqual({ status: 422, loc: [loc] });
    }
  });

  it("a named agent's problem is named under agents.<name>, not as the main agent's", async () => {
    for (const [extra, field] of [
      [{ condenser: { kind: 'Nope' } }, 'agents.helper.condenser'],
      [{ mcp_config: { mcpServers: { a: { command: '' } } } }, 'agents.helper.mcp_config'],
    ] as const) {
      const { status, json } = await server.call('POST', '/api/conversations', {
        ...createRequest(server.llm),
        agents: { helper: helperAgent(extra) },
      });
      const message = status === 422 ? (json as Detail).detail[0]!.msg : JSON.stringify(json);
      expect({ field, status, named: message.includes(field) }).toEqual({ field, status: 422, named: true });
      expect(message).not.toMatch(/(^|[^s])agent\.(condenser|mcp_config)/);
    }
  });

  it('an unsupported security analyzer names its kind', async () => {
    const created = await server.call('POST', '/api/conversations', createRequest(server.llm));
    const id = (created.json as { id: string }).id;
    const { status, json } = await server.call('POST', `/api/conversations/${id}/security_analyzer`, {
      security_analyzer: { kind: 'GraySwanAnalyzer' },
    });
    expect(status).toBe(422);
    expect(locations(json)).toEqual([['body', 'security_analyzer', 'kind']]);
  });
});

describe('agent.llm.base_url', () => {
  it('refuses an endpoint that is no http(s) URL at creation, naming the field', async () => {
    for (const baseUrl of ['javascript:alert(1)', 'file:///etc/passwd', 'localhost:8000/v1', 'ftp://127.0.0.1/v1']) {
      const body = withAgent({ llm: { model: 'gpt-test', base_url: baseUrl } });
      const { status, json } = await server.call('POST', '/api/conversations', body);
      expect({ baseUrl, status }).toEqual({ baseUrl, status: 422 });
      expect(locations(json)).toEqual([['body', 'agent', 'llm', 'base_url']]);
      expect((json as Detail).detail[0]!.msg).toContain('http:// or https:// URL');
    }
  });

  it('accepts http and https endpoints', async () => {
    for (const baseUrl of [server.llm.baseURL, 'https://127.0.0.1:9/v1']) {
      const body = withAgent({ llm: { model: 'gpt-test', base_url: baseUrl, api_key: 'sk-test' } });
      const { status } = await server.call('POST', '/api/conversations', body);
      expect({ baseUrl, status }).toEqual({ baseUrl, status: 201 });
    }
  });
});
