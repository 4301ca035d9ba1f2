import { afterEach, describe, expect, it } from 'vitest';
import {
  createAnthropicLLM,
  createGeminiLLM,
  createOpenAILLM,
  createOpenAIResponsesLLM,
  type LLM,
  LLMError,
  maskUrlCredentials,
} from '../src/index.js';
import {
  startAnthropicServer,
  startGeminiServer,
  startResponsesServer,
  startScriptedLLMServer,
} from '../src/testing/index.js';

const hidden = '<secret-hidden>';
const request = { messages: [{ role: 'user' as const, content: 'hi' }] };
/** Short on purpose: below the length the error masking hides by value, so only masking the URL hides them. */
const user = 'ci';
const password = 'p@w';
const basic = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** `http://127.0.0.1:1234/v1` with userinfo and a query: `http://ci:p%40w@127.0.0.1:1234/v1?key=k1&region=eu`. */
function withCredentials(baseURL: string): string {
  const url = new URL(baseURL);
  return `${url.protocol}//${user}:${encodeURIComponent(password)}@${url.host}${url.pathname}?key=k1&region=eu`;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('maskUrlCredentials', () => {
  it.each([
    ['https://user:pass@host/v1?key=abc', `https://user:${hidden}@host/v1?key=${hidden}`],
    [
      'https://host:8443/v1?api-version=2024&api_key=abc&X-Amz-Signature=s&access_token=t#frag',
      `https://host:8443/v1?api-version=2024&api_key=${hidden}&X-Amz-Signature=${hidden}&access_token=${hidden}#frag`,
    ],
    ['https://user@host/v1', 'https://user@host/v1'],
    ['https://:secret@host', `https://:${hidden}@host`],
    ['http://127.0.0.1:8000/v1', 'http://127.0.0.1:8000/v1'],
    ['https://host/v1?flag&Key=x', `https://host/v1?flag&Key=${hidden}`],
    ['not a url //a:b@c', `not a url //a:${hidden}@c`],
    // A parameter without a value keeps its name, even one that looks like a credential.
    ['https://host/v1?session_token&a=1', 'https://host/v1?session_token&a=1'],
    // A percent-encoded name is matched decoded (`%6Bey` is `key`).
    ['https://host/v1?%6Bey=abc&a=1', `https://host/v1?%6Bey=${hidden}&a=1`],
    // A `#` before the `?` starts the fragment; the text after it is kept once, its credential masked.
    ['https://host/v1#x?key=abc', `https://host/v1#x?key=${hidden}`],
  ])('%s → %s', (url, masked) => {
    expect(maskUrlCredentials(url)).toBe(masked);
  });
});

describe('a base URL with userinfo and a query, through each vendor SDK', () => {
  it('OpenAI Chat Completions: Basic header from the userinfo, the query kept', async () => {
    const server = await startScriptedLLMServer([{ content: 'hi' }]);
    closers.push(() => server.close());
    const llm = createOpenAILLM({ model: 'gpt-4o', apiKey: 'sk-test', baseURL: withCredentials(server.baseURL) });
    const response = await llm.complete(request);
    expect(response.message.content).toEqual([expect.objectContaining({ text: 'hi' })]);
    expect(server.requestHeaders[0]?.authorization).toBe(basic);
    expect(server.requestQueries[0]).toBe('?key=k1&region=eu');
  });

  it('OpenAI Chat Completions: a fragment alone is dropped, so the SDK path is appended to the path', async () => {
    const server = await startScriptedLLMServer([{ content: 'hi' }]);
    closers.push(() => server.close());
    const llm = createOpenAILLM({ model: 'gpt-4o', apiKey: 'sk-test', baseURL: `${server.baseURL}#frag` });
    const response = await llm.complete(request);
    expect(response.message.content).toEqual([expect.objectContaining({ text: 'hi' })]);
    expect(server.requestHeaders[0]?.authorization).toBe('Bearer sk-test');
  });

  it('Anthropic: Basic header beside the x-api-key, the query kept', async () => {
    const server = await startAnthropicServer([{ text: 'hi' }]);
    closers.push(() => server.close());
    const llm = createAnthropicLLM({
      model: 'anthropic/claude-sonnet-4-6',
      apiKey: 'sk-ant-test',
      baseURL: withCredentials(server.baseURL),
    });
    await llm.complete(request);
    expect(server.requests[0]?.headers.authorization).toBe(basic);
    expect(server.requests[0]?.headers['x-api-key']).toBe('sk-ant-test');
    expect(server.requests[0]?.query).toBe('?key=k1&region=eu');
  });

  it('OpenAI Responses: Basic header from the userinfo, the query kept', async () => {
    const server = await startResponsesServer([{ text: 'hi' }]);
    closers.push(() => server.close());
    const llm = createOpenAIResponsesLLM({
      model: 'openai/o4-mini',
      apiKey: 'sk-test',
      baseURL: withCredentials(server.baseURL),
    });
    await llm.complete(request);
    expect(server.requests[0]?.headers.authorization).toBe(basic);
    expect(server.requests[0]?.query).toBe('?key=k1&region=eu');
  });

  it('Gemini: Basic header beside the x-goog-api-key, the query added to its own', async () => {
    const server = await startGeminiServer([{ text: 'hi' }]);
    closers.push(() => server.close());
    const llm = createGeminiLLM({
      model: 'gemini/gemini-2.5-flash',
      apiKey: 'g-test',
      baseURL: withCredentials(server.baseURL),
    });
    await llm.complete(request);
    expect(server.requests[0]?.headers.authorization).toBe(basic);
    expect(server.requests[0]?.headers['x-goog-api-key']).toBe('g-test');
    expect(new URLSearchParams(server.requests[0]?.query).get('key')).toBe('k1');
    expect(new URLSearchParams(server.requests[0]?.query).get('region')).toBe('eu');
  });

  it.each([
    ['openai', (baseURL: string) => createOpenAILLM({ model: 'gpt-4o', apiKey: 'sk-test', baseURL, maxRetries: 0 })],
    [
      'anthropic',
      (baseURL: string) =>
        createAnthropicLLM({ model: 'anthropic/claude-sonnet-4-6', apiKey: 'sk-ant-test', baseURL, maxRetries: 0 }),
    ],
    [
      'gemini',
      (baseURL: string) =>
        createGeminiLLM({ model: 'gemini/gemini-2.5-flash', apiKey: 'g-test', baseURL, maxRetries: 0 }),
    ],
  ] as [string, (baseURL: string) => LLM][])('%s: an error names the URL masked', async (_name, create) => {
    // Nothing listens on port 9 of the loopback: the connection is refused and the error names where it went.
    const llm = create(`http://${user}:${encodeURIComponent(password)}@127.0.0.1:9/v1?key=k1&region=eu`);
    const error = await llm.complete(request).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LLMError);
    const text = `${(error as Error).message} ${JSON.stringify(error)}`;
    expect(text).not.toContain('p%40w');
    expect(text).not.toContain('key=k1');
  });
});
