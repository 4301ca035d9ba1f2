import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  finishReply,
  fixtureReadablePaths,
  removeDir,
  startTestServer,
  type TestServer,
  waitForIdle,
} from './helpers.js';

const serverScript = fileURLToPath(new URL('./fixtures/echo-mcp-server.mjs', import.meta.url));
let server: TestServer;
let workspace: string;

beforeAll(async () => {
  server = await startTestServer();
  // Working directories lie in the server's workspace root (default <dataDir>/workspaces).
  await mkdir(join(server.dataDir, 'workspaces'), { recursive: true });
  workspace = await mkdtemp(join(server.dataDir, 'workspaces', 'ws-'));
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

type Event = Record<string, unknown> & { kind: string };

async function events(id: string): Promise<Event[]> {
  const { json } = await server.call('GET', `/api/conversations/${id}/events/search?limit=100`);
  return (json as { items: Event[] }).items;
}

describe('create-conversation body: agent.mcp_config and agent.agent_context', () => {
  it('runs MCP tools and skills from the request, and keeps MCP secrets out of responses and meta.json', async () => {
    await writeFile(join(workspace, 'AGENTS.md'), 'Answer briefly.');
    server.llm.push({ toolCalls: [{ name: 'shout', arguments: { text: 'hey' } }] }, finishReply('done'));
    const created = await server.call('POST', '/api/conversations', {
      agent: {
        llm: { model: 'gpt-test', base_url: server.llm.baseURL, api_key: 'sk-test-secret' },
        tools: [],
        mcp_config: {
          echo: {
            command: process.execPath,
            args: [serverScript],
            env: { ECHO_TOKEN: 'mcp-secret-value' },
            sandbox: { readablePaths: fixtureReadablePaths },
          },
        },
        agent_context: {
          skills: [
            { name: 'deploy', content: 'Use the blue pipeline.', trigger: { type: 'keyword', keywords: ['deploy'] } },
          ],
          load_project_skills: true,
        },
      },
      workspace: { working_dir: workspace },
      initial_message: { content: 'Shout hey before we deploy' },
    });
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    const info = await waitForIdle(server, id);
    expect(info.execution_status).toBe('finished');
    expect(JSON.stringify(info)).not.toContain('mcp-secret-value');

    const all = await events(id);
    const message = all.find((event) => event.kind === 'MessageEvent');
    expect(message?.activated_skills).toEqual(['deploy']);
    const observation = all.find((event) => event.kind === 'ObservationEvent');
    expect(observation?.observation).toMatchObject({
      is_error: false,
      tool_name: 'shout',
      kind: 'MCPToolObservation',
      content: [{ text: "[Tool 'shout' executed.]" }, { text: 'HEY' }],
    });
    const system = all.find((event) => event.kind === 'SystemPromptEvent') as { dynamic_context?: { text: string } };
    expect(system.dynamic_context?.text).toContain('Answer briefly.');

    const hex = id.replace(/-/g, '');
    const stored = await readFile(join(server.dataDir, 'conversations', hex, 'meta.json'), 'utf8');
    expect(stored).toContain('ECHO_TOKEN');
    expect(stored).not.toContain('mcp-secret-value');
  });

  it('rejects a malformed mcp_config with 422 naming the server', async () => {
    const response = await server.call('POST', '/api/conversations', {
      agent: { llm: { model: 'offline' }, mcp_config: { broken: { colour: 'red' } } },
    });
    expect(response.status).toBe(422);
    expect(JSON.stringify(response.json)).toContain("server 'broken'");
  });
});
