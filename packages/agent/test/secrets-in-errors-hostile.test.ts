import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, createLLM, createOpenAILLM, defaultTools, defineTool, LLMError } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';

const API_KEY = 'sk-live-hostile-API-KEY-0123456789';
const HEADER_KEY = 'azure-style-header-key-98765';
const SECRET = 'ghp_conversationSecret_abcdef012345';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** Every spelling a provider (or a proxy in front of it) might echo a credential in. */
function echoes(value: string): string[] {
  return [
    value,
    Buffer.from(value).toString('base64'),
    encodeURIComponent(`"${value}"`),
    JSON.stringify({ key: value }),
    Buffer.from(value).toString('hex'),
  ];
}

async function allFiles(dir: string): Promise<string> {
  let text = '';
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) text += await readFile(join(entry.parentPath, entry.name), 'utf8');
  }
  return text;
}

function leaked(text: string, values: readonly string[]): string[] {
  return values.flatMap((value) => echoes(value).filter((spelled) => text.includes(spelled)));
}

describe('credentials and secrets in errors', () => {
  it('an LLM error never carries the API key or a credential header, whatever the provider echoes', async () => {
    // A provider (or a proxy) that echoes every header it got, in several spellings, in its 401 body.
    const echoing = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        const headers = Object.values(request.headers).filter((value): value is string => typeof value === 'string');
        const message = `Incorrect API key provided: ${headers.flatMap(echoes).join(' | ')}`;
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message, type: 'invalid_request_error', code: 'invalid_api_key' } }));
      });
    });
    await new Promise<void>((resolve) => echoing.listen(0, '127.0.0.1', resolve));
    const { port } = echoing.address() as AddressInfo;
    try {
      for (const provider of ['openai', 'openai-responses', 'anthropic', 'gemini'] as const) {
        const llm = createLLM({
          model: provider === 'anthropic' ? 'claude-test' : provider === 'gemini' ? 'gemini-test' : 'gpt-test',
          provider,
          baseURL: `http://127.0.0.1:${port}/v1`,
          apiKey: API_KEY,
          headers: { 'api-key': HEADER_KEY },
          maxRetries: 0,
        });
        const error = await llm.complete({ messages: [{ role: 'user', content: 'hi' }] }).then(
          () => undefined,
          (reason: unknown) => reason,
        );
        expect(LLMError.isInstance(error)).toBe(true);
        const llmError = error as LLMError;
        // The whole chain, as a logger prints it: the SDK's error below (its message, stack and parsed body) too.
        const cause = llmError.cause as (Error & { error?: unknown }) | undefined;
        const everything = [
          llmError.message,
          llmError.stack,
          llmError.providerMessage,
          cause?.message,
          cause?.stack,
          JSON.stringify(cause?.error),
        ].join('\n');
        expect({ provider, leaked: leaked(everything, [API_KEY, HEADER_KEY]) }).toEqual({ provider, leaked: [] });
        expect({ provider, masked: llmError.message.includes('<secret-hidden>') }).toEqual({ provider, masked: true });
      }
    } finally {
      await new Promise((resolve) => echoing.close(resolve));
    }
  });

  it('a failed run records neither the API key nor a conversation secret, in events, files or the thrown error', async () => {
    const echo = `rejected: ${echoes(API_KEY).join(' ')} while reading ${echoes(SECRET).join(' ')}`;
    harness = await startHarness([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo "token: $GITHUB_TOKEN"' } }] },
      { error: { status: 400, message: echo } },
    ]);
    const agent = new Agent({
      llm: createOpenAILLM({ model: 'scripted', baseURL: harness.server.baseURL, apiKey: API_KEY, maxRetries: 0 }),
      tools: defaultTools(),
    });
    const { conversation, events } = await harness.conversation({ agent, secrets: { GITHUB_TOKEN: SECRET } });
    await conversation.sendMessage('go');
    const thrown = await conversation.run().then(
      () => undefined,
      (reason: unknown) => reason as Error,
    );
    expect(thrown?.message).toContain('<secret-hidden>');
    const errorEvent = events.find((event) => event.kind === 'ConversationErrorEvent');
    expect(errorEvent).toMatchObject({
      code: 'LLMBadRequestError',
      detail: expect.stringContaining('<secret-hidden>'),
    });
    const everything = `${JSON.stringify(events)}\n${await allFiles(harness.persistenceDir)}\n${thrown?.message}`;
    expect(leaked(everything, [API_KEY, SECRET])).toEqual([]);
  });

  it('a tool that throws with the secret (and its base64) in its message records neither', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'leaky', arguments: {} }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] },
    ]);
    const leaky = defineTool({
      name: 'leaky',
      description: 'throws with a secret in its message',
      parameters: z.object({}),
      execute: async () => {
        throw new Error(`failed with ${SECRET} (${Buffer.from(SECRET).toString('base64')})`);
      },
    });
    const agent = harness.agent({ tools: [...defaultTools(), leaky] });
    const { conversation, events } = await harness.conversation({ agent, secrets: { GITHUB_TOKEN: SECRET } });
    await conversation.sendMessage('go');
    await conversation.run();
    const everything = `${JSON.stringify(events)}\n${await allFiles(harness.persistenceDir)}`;
    expect(everything).toContain('<secret-hidden>');
    expect(leaked(everything, [SECRET])).toEqual([]);
  });
});
