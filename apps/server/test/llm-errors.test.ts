import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, removeDir, startTestServer, type TestServer } from './helpers.js';

let server: TestServer;
let id: string;

beforeAll(async () => {
  server = await startTestServer();
  id = await createConversation(server);
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

describe('LLM failures on ask_agent and generate_title', () => {
  it('map to typed gateway errors, without internal error text', async () => {
    const cases = [
      {
        reply: { error: { status: 401, message: 'Incorrect API key provided: sk-test-secret' } },
        status: 502,
        code: 'llm_authentication',
      },
      { reply: { error: { status: 400, message: 'bad' } }, status: 502, code: 'llm_bad_request' },
    ];
    for (const { reply, status, code } of cases) {
      server.llm.push(reply);
      const response = await server.call('POST', `/api/conversations/${id}/ask_agent`, { question: 'why?' });
      expect(response).toEqual({ status, json: { detail: expect.any(String), code } });
      expect(JSON.stringify(response.json)).not.toContain('sk-test-secret');
    }
  });

  it('still answers once the provider recovers', async () => {
    server.llm.push({ content: 'all good' });
    const response = await server.call('POST', `/api/conversations/${id}/ask_agent`, { question: 'ok?' });
    expect(response.status).toBe(200);
  });

  it('generate_title: no user message is a 400; a model failure falls back to the message text', async () => {
    const untitled = await server.call('POST', `/api/conversations/${id}/generate_title`, {});
    expect(untitled.status).toBe(400);
    await server.call('POST', `/api/conversations/${id}/events`, { content: [{ type: 'text', text: 'hello' }] });
    server.llm.push({ error: { status: 401, message: 'no' } });
    const response = await server.call('POST', `/api/conversations/${id}/generate_title`, {});
    expect(response).toEqual({ status: 200, json: { title: 'hello' } });
  });

  it('maps a rate limit that outlasts the retries to 429', async () => {
    server.llm.push(
      ...Array.from({ length: 20 }, () => ({
        error: { status: 429, message: 'slow down' },
        headers: { 'retry-after-ms': '1' },
      })),
    );
    const limited = await server.call('POST', `/api/conversations/${id}/ask_agent`, { question: 'why?' });
    expect(limited).toEqual({ status: 429, json: { detail: expect.any(String), code: 'llm_rate_limit' } });
  });
});
