// A caller outside `approvalDeciders` asking the MCP face to decide on pending actions, judged by
// `@modelcontextprotocol/sdk`'s Client over streamable HTTP: the refusal is the face's kind of refusal (a JSON-RPC
// error whose `data.reason` names it, as for any call the caller may not make), not a tool result saying the tool
// failed, which a client (and its model) cannot tell from the conversation breaking.
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagedConversation } from '../../src/conversations/managed-conversation.js';
import { createRequest, removeDir, startTestServer, type TestServer, waitFor } from '../helpers.js';
import { mcpRefusalOf } from '../support/mcp-refusal.js';

const DECIDER = 'mcp-key-of-the-decider-01';
const OTHER = 'mcp-key-of-someone-else-02';
const principal = (key: string) => `api-key:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;

let server: TestServer;
let client: Client;

beforeAll(async () => {
  const llm = await startScriptedLLMServer();
  server = await startTestServer({
    llm,
    config: { apiKeys: [DECIDER, OTHER], approvalDeciders: [principal(DECIDER)] },
  });
  client = new Client({ name: 'x-mcp-refused', version: '1.0.0' });
  const headers = { authorization: `Bearer ${OTHER}` };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers } }),
  );
});
afterAll(async () => {
  await client.close();
  await server.stop();
  await removeDir(server.dataDir);
});

/** A conversation (made by the decider) waiting for confirmation of a command. */
async function waiting(): Promise<ManagedConversation> {
  server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'echo decided' } }] });
  const created = await server.call(
    'POST',
    '/api/conversations',
    {
      ...createRequest(server.llm),
      confirmation_policy: { kind: 'AlwaysConfirm' },
      initial_message: { content: [{ type: 'text', text: 'do it' }], run: true },
    },
    { 'x-session-api-key': DECIDER },
  );
  const managed = await server.built.manager.require((created.json as { id: string }).id);
  await waitFor(
    async () => (await managed.open()).state.execution_status === 'waiting_for_confirmation' && !managed.isRunning,
  );
  return managed;
}

describe('MCP tools a caller outside approvalDeciders may not use on a waiting conversation', () => {
  it.each([
    [
      'confirm_actions approving',
      (id: string) => ({ name: 'confirm_actions', arguments: { conversation_id: id, approve: true } }),
    ],
    [
      'confirm_actions rejecting',
      (id: string) => ({ name: 'confirm_actions', arguments: { conversation_id: id, approve: false } }),
    ],
  ])('refuses %s with -32600 and data.reason principal_not_allowed, deciding nothing', async (_what, request) => {
    const conversation = await waiting();
    const error = await mcpRefusalOf(client.callTool(request(conversation.id)));
    expect(error.code).toBe(-32600);
    expect(error.data).toEqual({ reason: 'principal_not_allowed', conversation_id: conversation.id });
    expect(error.message).toContain(`'${principal(OTHER)}' is not allowed to decide on pending actions`);
    expect((await conversation.open()).state.execution_status).toBe('waiting_for_confirmation');
    expect(await (await conversation.open()).pendingActions()).toHaveLength(1);
  });
});
