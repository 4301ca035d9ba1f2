import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Agent, Conversation, createOpenAILLM } from '@x/agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConversation, RemoteConversation } from '../../src/client/index.js';
import { finishReply, removeDir, startTestServer, type TestServer } from '../helpers.js';

let server: TestServer;
let workspace: string;
beforeAll(async () => {
  server = await startTestServer();
  // Inside the server's workspace root, so the same path serves both kinds.
  await mkdir(join(server.dataDir, 'workspaces'), { recursive: true });
  workspace = await mkdtemp(join(server.dataDir, 'workspaces', 'open-'));
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
  await rm(workspace, { recursive: true, force: true });
});

const agentFor = (baseURL: string) =>
  new Agent({ llm: createOpenAILLM({ model: 'gpt-test', baseURL, apiKey: 'sk-test' }), tools: [] });

describe('openConversation: one factory, a local or a remote conversation from the same options', () => {
  it('runs here without a server, and on the server with one, through the same calls', async () => {
    const agent = agentFor(server.llm.baseURL);
    const seen: string[] = [];
    server.llm.push(finishReply('local answer'), finishReply('remote answer'));

    const local = await openConversation({
      agent,
      workspace,
      onEvent: (event) => seen.push(`local ${event.kind}`),
      local: { persistenceDir: join(server.dataDir, 'local-conversations') },
    });
    expect(local).toBeInstanceOf(Conversation);
    await local.sendMessage('hello');
    expect((await local.run()).status).toBe('finished');
    await local.close();

    const remote = await openConversation({
      agent,
      workspace,
      onEvent: (event) => seen.push(`remote ${event.kind}`),
      server: { url: server.url, llm: { model: 'gpt-test', base_url: server.llm.baseURL, api_key: 'sk-test' } },
    });
    expect(remote).toBeInstanceOf(RemoteConversation);
    await remote.sendMessage('hello');
    expect((await remote.run()).status).toBe('finished');
    await remote.close();

    expect(seen).toContain('local ObservationEvent');
    expect(seen).toContain('remote ObservationEvent');
    // The remote one ran on the server: its conversation is listed there.
    const list = (await server.call('GET', '/api/conversations/search')).json as { items: { id: string }[] };
    expect(list.items.map((item) => item.id)).toContain(remote.id);
  });
});
