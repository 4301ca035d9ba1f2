// An MCP client stops the agent with the `interrupt` tool: cancelling a `run` request only ends the wait (the SDK
// also cancels on its own timeout, which must not kill a long run), so the tool is how a client that speaks only
// MCP stops a run. Judged with `@modelcontextprotocol/sdk`'s Client against a real server on 127.0.0.1.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfigInput } from '../../src/index.js';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer } from '../helpers.js';

let server: TestServer;
let client: Client;
const CALL = { timeout: 120_000 };

beforeAll(async () => {
  const llm = await startScriptedLLMServer();
  server = await startTestServer({
    llm,
    config: { mcpConversation: createRequest(llm) as ServerConfigInput['mcpConversation'] },
  });
  client = new Client({ name: 'x-mcp-interrupt-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`)));
});
afterAll(async () => {
  await client.close();
  await server.stop();
  await removeDir(server.dataDir);
});

type View = { conversation_id: string; status: string };
const viewOf = (result: unknown): View => (result as CallToolResult).structuredContent as View;

describe('the interrupt tool', () => {
  it('stops a run in progress: the model call is closed, the run answers paused, and run goes on later', async () => {
    const id = viewOf(await client.callTool({ name: 'start_conversation', arguments: {} })).conversation_id;
    server.llm.push({ hang: true });
    const before = server.llm.requests.length;
    const running = client.callTool(
      { name: 'run', arguments: { conversation_id: id, message: 'work' } },
      undefined,
      CALL,
    );
    await server.llm.waitForRequests(before + 1);

    const interrupted = viewOf(await client.callTool({ name: 'interrupt', arguments: { conversation_id: id } }));
    expect(interrupted.status).toBe('paused');
    expect(viewOf(await running).status).toBe('paused');
    await server.llm.waitForClientClose(before);
    const log = await client.readResource({ uri: `x://conversations/${id}/events?start=0&limit=100` });
    expect((log.contents[0] as { text: string }).text).toContain('"InterruptEvent"');
    const state = viewOf(await client.callTool({ name: 'get_conversation', arguments: { conversation_id: id } }));
    expect(state.status).toBe('paused');

    server.llm.push(finishReply('done after the interrupt'));
    expect(
      viewOf(await client.callTool({ name: 'run', arguments: { conversation_id: id } }, undefined, CALL)).status,
    ).toBe('finished');
  });

  it('refuses an unknown conversation with a tool error the model can read, naming the reason', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const refused = await client.callTool({ name: 'interrupt', arguments: { conversation_id: unknown } });
    expect(refused).toMatchObject({
      isError: true,
      structuredContent: { reason: 'conversation_not_found', conversation_id: unknown },
    });
    expect(JSON.stringify(refused.content)).toMatch(/no conversation|not found|unknown/i);
  });
});
