// What a user message may carry through the AG-UI face, judged by `@ag-ui/client`'s HttpAgent against a real server:
// AG-UI 1.0 image parts (inline data or by URL) reach the model as images, beside the text, an image alone included;
// what a conversation cannot hold (audio, video, documents) is refused with a typed RUN_ERROR and records nothing,
// instead of being dropped while the model answers the rest.
import { randomUUID } from 'node:crypto';
import type { BaseEvent, Message } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer } from '../helpers.js';
import { collect, XAgent } from '../support/ag-ui-agent.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

async function run(agent: XAgent, parameters: Parameters<XAgent['runAgent']>[0] = {}): Promise<BaseEvent[]> {
  const events = collect(agent);
  await agent.runAgent(parameters);
  return events;
}

/** The user message the model was last sent, as the chat completions request carries it. */
function lastUserMessage(): unknown {
  const messages = (server.llm.requests.at(-1)?.messages ?? []) as { role: string }[];
  return messages.findLast((message) => message.role === 'user');
}

function threadWith(content: Message & { role: 'user' }): XAgent {
  const agent = new XAgent(server.url, randomUUID());
  agent.addMessage(content);
  return agent;
}

describe('images in user messages', () => {
  it('gives the model an image sent as inline data, alone in its message', async () => {
    server.llm.push(finishReply('A single pixel.'));
    const agent = threadWith({
      id: randomUUID(),
      role: 'user',
      content: [{ type: 'image', source: { type: 'data', value: PNG, mimeType: 'image/png' } }],
    });
    const events = await run(agent, { forwardedProps: { conversation: createRequest(server.llm) } });
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    expect(lastUserMessage()).toEqual({
      role: 'user',
      content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }],
    });
    expect(events.some((event) => event.type === 'TOOL_CALL_RESULT')).toBe(true);
  });

  it('keeps text and an image by URL in order, and a second run on the thread adds only the new message', async () => {
    server.llm.push(finishReply('A cat.'));
    const agent = threadWith({
      id: randomUUID(),
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this picture?' },
        { type: 'image', source: { type: 'url', value: 'https://images.example/cat.png', mimeType: 'image/png' } },
      ],
    });
    await run(agent, { forwardedProps: { conversation: createRequest(server.llm) } });
    expect(lastUserMessage()).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this picture?' },
        { type: 'image_url', image_url: { url: 'https://images.example/cat.png' } },
      ],
    });

    server.llm.push(finishReply('Still a cat.'));
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Are you sure?' });
    const second = await run(agent);
    expect(second.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    const sent = (server.llm.requests.at(-1)?.messages ?? []) as { role: string }[];
    expect(sent.filter((message) => message.role === 'user')).toHaveLength(2);
    expect(lastUserMessage()).toEqual({ role: 'user', content: [{ type: 'text', text: 'Are you sure?' }] });
  });
});

describe('attachments a conversation cannot hold', () => {
  it.each([
    ['a document', { type: 'document', source: { type: 'data', value: 'aGVsbG8=', mimeType: 'application/pdf' } }],
    ['audio', { type: 'audio', source: { type: 'url', value: 'https://media.example/a.wav', mimeType: 'audio/wav' } }],
    ['an image held by a provider', { type: 'image', source: { type: 'file', value: 'file-abc123' } }],
  ])('%s is refused with RUN_ERROR unsupported_content, naming the part, recording nothing', async (_name, part) => {
    const before = server.llm.requests.length;
    const agent = threadWith({
      id: randomUUID(),
      role: 'user',
      content: [{ type: 'text', text: 'Read this' }, part] as Extract<Message, { role: 'user' }>['content'],
    });
    const events = await run(agent, { forwardedProps: { conversation: createRequest(server.llm) } });
    expect(events).toEqual([
      expect.objectContaining({
        type: 'RUN_ERROR',
        code: 'unsupported_content',
        message: expect.stringContaining('messages[0].content[1]'),
      }),
    ]);
    expect(server.llm.requests.length).toBe(before);
    const conversation = await (await server.built.manager.require(agent.threadId)).open();
    const logged = await conversation.log.range(0, conversation.log.length);
    expect(logged.some((event) => event.kind === 'MessageEvent' && event.source === 'user')).toBe(false);
  });

  it('names the message by its place in the input, after the messages before it', async () => {
    const agent = threadWith({ id: randomUUID(), role: 'user', content: 'First, this' });
    agent.addMessage({
      id: randomUUID(),
      role: 'user',
      content: [
        { type: 'text', text: 'Then this' },
        { type: 'audio', source: { type: 'url', value: 'https://media.example/b.wav', mimeType: 'audio/wav' } },
      ] as Extract<Message, { role: 'user' }>['content'],
    });
    const events = await run(agent, { forwardedProps: { conversation: createRequest(server.llm) } });
    expect(events).toEqual([
      expect.objectContaining({
        type: 'RUN_ERROR',
        code: 'unsupported_content',
        message: expect.stringContaining('messages[1].content[1]'),
      }),
    ]);
  });
});
