import { afterEach, describe, expect, it } from 'vitest';
import { type ScriptedLLMServer, startScriptedLLMServer } from '../src/testing/index.js';

let server: ScriptedLLMServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function post(baseURL: string, body: string, path = '/chat/completions'): Promise<Response> {
  return fetch(`${baseURL}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
}

describe('startScriptedLLMServer', () => {
  it('listens on 127.0.0.1 with a base URL ending in /v1', async () => {
    server = await startScriptedLLMServer();
    expect(server.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it('answers 404 JSON for other paths and 400 for a body that is not a JSON object', async () => {
    server = await startScriptedLLMServer([{ content: 'unused' }]);
    const missing = await post(server.baseURL, '{}', '/embeddings');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { message: 'No route for POST /v1/embeddings' } });
    const invalid = await post(server.baseURL, '{not json');
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: { message: string } }).error.message).toContain('JSON object');
    expect(server.requests).toEqual([]);
  });

  it('says loudly that the script is exhausted, and asks clients not to retry', async () => {
    server = await startScriptedLLMServer([{ content: 'only one' }]);
    expect((await post(server.baseURL, '{"model":"m","messages":[]}')).status).toBe(200);
    const exhausted = await post(server.baseURL, '{"model":"m","messages":[]}');
    expect(exhausted.status).toBe(500);
    expect(exhausted.headers.get('x-should-retry')).toBe('false');
    expect(((await exhausted.json()) as { error: { message: string } }).error.message).toContain(
      'script is exhausted; request 2',
    );
  });

  it('serves pushed replies before consulting a function script, which sees the body and index', async () => {
    const seen: [unknown, number][] = [];
    server = await startScriptedLLMServer((body, index) => {
      seen.push([body.model, index]);
      return { content: `reply ${index}` };
    });
    server.push({ content: 'pushed' });
    const first = (await (await post(server.baseURL, '{"model":"a"}')).json()) as {
      id: string;
      choices: { message: { content: string } }[];
    };
    const second = (await (await post(server.baseURL, '{"model":"b"}')).json()) as typeof first;
    expect(first.id).toBe('chatcmpl-1');
    expect(first.choices[0]?.message.content).toBe('pushed');
    expect(second.choices[0]?.message.content).toBe('reply 1');
    expect(seen).toEqual([['b', 1]]);
    expect(server.requests).toEqual([{ model: 'a' }, { model: 'b' }]);
  });

  it('streams SSE chunks ending with a usage chunk and [DONE]', async () => {
    server = await startScriptedLLMServer([{ content: 'abc', usage: { prompt_tokens: 3, completion_tokens: 1 } }]);
    const response = await post(server.baseURL, '{"model":"m","stream":true}');
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = (await response.text()).split('\n\n').filter((line) => line.startsWith('data: '));
    expect(events.at(-1)).toBe('data: [DONE]');
    const usageChunk = JSON.parse(events.at(-2)?.slice('data: '.length) ?? '{}') as Record<string, unknown>;
    expect(usageChunk).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
    });
  });
});
