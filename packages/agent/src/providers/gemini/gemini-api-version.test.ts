import { afterEach, describe, expect, it, vi } from 'vitest';
import { startGeminiServer, type WireServer } from '../../testing/wire/index.js';
import { createGeminiLLM } from './gemini-llm.js';

/**
 * `@google/genai` 3.x defaults the Gemini API to v1 where 2.x used v1beta. CI installs one major (3.x
 * needs Node 22, CI runs the Node 20 floor), so the real SDK here is wrapped to default as 3.x does:
 * a provider that leaves the version to the SDK then asks for /v1/ and the v1beta server answers 404.
 */
vi.mock('@google/genai', async (importOriginal) => {
  const sdk = await importOriginal<typeof import('@google/genai')>();
  type Options = ConstructorParameters<typeof sdk.GoogleGenAI>[0];
  class V1DefaultGoogleGenAI extends sdk.GoogleGenAI {
    constructor(options?: Options) {
      super({ ...options, httpOptions: { apiVersion: 'v1', ...options?.httpOptions } });
    }
  }
  return { ...sdk, GoogleGenAI: V1DefaultGoogleGenAI };
});

let server: WireServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('createGeminiLLM with an SDK whose default API version is v1 (@google/genai 3.x)', () => {
  it.each([
    { stream: false, path: '/v1beta/models/gemini-2.5-flash:generateContent' },
    { stream: true, path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent' },
  ])('sends a stream=$stream request to $path', async ({ stream, path }) => {
    server = await startGeminiServer([{ text: 'Hello from v1beta.' }]);
    const llm = createGeminiLLM({
      model: 'gemini/gemini-2.5-flash',
      baseURL: server.baseURL,
      apiKey: 'gm-test',
      maxRetries: 0,
      ...(stream && { stream: true }),
    });

    const response = await llm.complete({ messages: [{ role: 'user', content: 'Hi' }] });

    expect(response.message.content).toEqual([{ cache_prompt: false, type: 'text', text: 'Hello from v1beta.' }]);
    expect(server.requests.map((request) => ({ path: request.path, stream: request.stream }))).toEqual([
      { path, stream },
    ]);
  });
});
