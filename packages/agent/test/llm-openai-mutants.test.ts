import { afterEach, describe, expect, it } from 'vitest';
import type { LLMMessage } from '../src/llm/llm.js';
import { createOpenAILLM } from '../src/llm/openai-llm.js';
import { type ScriptedLLMServer, type ScriptedReply, startScriptedLLMServer } from '../src/testing/index.js';

// What createOpenAILLM puts on the wire and reads back, as the openai client sends it to a local server.
const withImage: LLMMessage[] = [
  {
    role: 'user',
    content: [
      { cache_prompt: false, type: 'text', text: 'what is this?' },
      { cache_prompt: false, type: 'image', image_urls: ['https://example.invalid/cat.png'] },
    ],
  },
];
const userTurn = [{ role: 'user' as const, content: 'hi' }];
let server: ScriptedLLMServer | undefined;

async function serve(script: ScriptedReply[]): Promise<ScriptedLLMServer> {
  server = await startScriptedLLMServer(script);
  return server;
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('createOpenAILLM request rendering', () => {
  it('sends images as image_url parts by default (vision on)', async () => {
    const { baseURL, requests } = await serve([{ content: 'a cat' }]);
    await createOpenAILLM({ model: 'm', baseURL, apiKey: 'k' }).complete({ messages: withImage });
    expect(requests[0]?.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is this?' },
          { type: 'image_url', image_url: { url: 'https://example.invalid/cat.png' } },
        ],
      },
    ]);
  });

  it('drops images with vision off, and keeps list form for the tool-calling turns', async () => {
    const { baseURL, requests } = await serve([{ content: 'no idea' }]);
    await createOpenAILLM({ model: 'm', baseURL, apiKey: 'k', vision: false }).complete({ messages: withImage });
    expect(requests[0]?.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'what is this?' }] }]);
  });

  it('sends no tools field for an empty tool list (OpenAI rejects an empty array)', async () => {
    const { baseURL, requests } = await serve([{ content: 'ok' }]);
    await createOpenAILLM({ model: 'm', baseURL, apiKey: 'k' }).complete({ messages: userTurn, tools: [] });
    expect(requests[0]).not.toHaveProperty('tools');
  });

  it('reports a context window of 0 in usage when none is configured', async () => {
    const { baseURL } = await serve([{ content: 'ok', usage: { prompt_tokens: 3, completion_tokens: 2 } }]);
    const response = await createOpenAILLM({ model: 'm', baseURL, apiKey: 'k' }).complete({ messages: userTurn });
    expect(response.usage).toMatchObject({ context_window: 0, prompt_tokens: 3, completion_tokens: 2 });
  });

  it('treats an explicit empty apiKey as no key: a base URL gets the placeholder, not OPENAI_API_KEY', async () => {
    const { baseURL, requestHeaders } = await serve([{ content: 'ok' }]);
    const previous = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-env-secret';
    try {
      await createOpenAILLM({ model: 'm', baseURL, apiKey: '' }).complete({ messages: userTurn });
    } finally {
      if (previous === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = previous;
    }
    expect(requestHeaders[0]?.authorization).toBe('Bearer not-needed');
  });
});
