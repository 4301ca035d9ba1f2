import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteConversation } from '../src/client/index.js';
import { createConversation, removeDir, startTestServer, type TestServer } from './helpers.js';

let server: TestServer;
let titleModel: ScriptedLLMServer;
beforeAll(async () => {
  server = await startTestServer();
  titleModel = await startScriptedLLMServer();
});
afterAll(async () => {
  await server.stop();
  await titleModel.close();
  await removeDir(server.dataDir);
});

async function conversationWithMessage(): Promise<string> {
  const id = await createConversation(server);
  await server.call('POST', `/api/conversations/${id}/events`, {
    content: [{ type: 'text', text: 'Plan a trip to Rome' }],
  });
  return id;
}

describe('generate_title with an llm of its own (the reference’s GenerateTitleRequest.llm)', () => {
  it('asks the model the request names, with its key, and not the agent’s', async () => {
    const id = await conversationWithMessage();
    const agentCalls = server.llm.requests.length;
    titleModel.push({ content: 'Rome in May' });
    const titled = await server.call('POST', `/api/conversations/${id}/generate_title`, {
      max_length: 60,
      llm: { model: 'gpt-title', base_url: titleModel.baseURL, api_key: 'sk-title-key', usage_id: 'title' },
    });
    expect(titled).toEqual({ status: 200, json: { title: 'Rome in May' } });
    expect(titleModel.requests.at(-1)).toMatchObject({ model: 'gpt-title' });
    expect(titleModel.requestHeaders.at(-1)?.authorization).toBe('Bearer sk-title-key');
    expect(server.llm.requests.length).toBe(agentCalls);
    const info = await server.call('GET', `/api/conversations/${id}`);
    expect((info.json as { title: string }).title).toBe('Rome in May');
  });

  it('asks the agent’s model when the request names none', async () => {
    const id = await conversationWithMessage();
    const titleCalls = titleModel.requests.length;
    server.llm.push({ content: 'Trip planning' });
    const titled = await server.call('POST', `/api/conversations/${id}/generate_title`, { llm: null });
    expect(titled).toEqual({ status: 200, json: { title: 'Trip planning' } });
    expect(titleModel.requests.length).toBe(titleCalls);
  });

  it('refuses an llm that is not an LLM config with 422, naming the field', async () => {
    const id = await conversationWithMessage();
    const refused = await server.call('POST', `/api/conversations/${id}/generate_title`, { llm: { model: 42 } });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.json)).toContain('llm');
  });
});

describe('RemoteConversation.generateTitle({ llm })', () => {
  it('sends the llm it is given to the server', async () => {
    const id = await conversationWithMessage();
    const conversation = await RemoteConversation.attach(server.url, id);
    titleModel.push({ content: 'Roman holiday' });
    const title = await conversation.generateTitle({
      llm: { model: 'gpt-title', base_url: titleModel.baseURL, api_key: 'sk-title-key' },
    });
    await conversation.close();
    expect(title).toBe('Roman holiday');
    expect(titleModel.requests.at(-1)).toMatchObject({ model: 'gpt-title' });
  });
});
