// A model that reasons again after its reply began (reasoning, text, reasoning, text in one streamed answer), judged
// by `@ag-ui/client`'s HttpAgent against `x serve` on loopback. The model is a small OpenAI-compatible server here,
// as the scripted one always streams its reasoning first. Each stretch of reasoning reaches the client as a reasoning
// message of its own, under an id of its own, while the reply stays one text message equal to the logged one.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BaseEvent } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer } from '../helpers.js';
import { collect, contentOf, XAgent } from '../support/ag-ui-agent.js';

/** The deltas of the one answer the model streams, in order. */
const DELTAS = [
  { reasoning_content: 'First thought.' },
  { content: 'Let me ' },
  { reasoning_content: 'Second ' },
  { reasoning_content: 'thought.' },
  { content: 'answer.' },
];

let server: TestServer;
let model: Server;
let modelUrl: string;

beforeAll(async () => {
  model = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-test' };
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
        `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(chunk({ role: 'assistant', content: '' }));
      for (const delta of DELTAS) response.write(chunk(delta));
      response.write(chunk({}, 'stop'));
      const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
      response.end(`data: ${JSON.stringify({ ...base, choices: [], usage })}\n\ndata: [DONE]\n\n`);
    });
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
  await new Promise((resolve) => model.close(resolve));
});

const idOf = (event: BaseEvent): string => (event as { messageId?: string }).messageId ?? '';
const deltaOf = (event: BaseEvent): string => (event as { delta?: string }).delta ?? '';

describe('AG-UI face with a model that reasons after its reply began', () => {
  it('streams each stretch of reasoning as its own message, the reply one text message', async () => {
    const agent = new XAgent(server.url, randomUUID());
    const events = collect(agent);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Answer me' });
    const conversation = {
      agent: { llm: { model: 'gpt-test', base_url: modelUrl, api_key: 'sk-test', stream: true }, tools: [] },
    };
    await agent.runAgent({ forwardedProps: { conversation } });

    const reasoningIds = events.filter((event) => event.type === 'REASONING_MESSAGE_START').map(idOf);
    expect(reasoningIds).toHaveLength(2);
    expect(new Set(reasoningIds).size).toBe(2);
    const reasoningText = (id: string) =>
      events
        .filter((event) => event.type === 'REASONING_MESSAGE_CONTENT' && idOf(event) === id)
        .map(deltaOf)
        .join('');
    expect(reasoningIds.map(reasoningText)).toEqual(['First thought.', 'Second thought.']);

    const textIds = events.filter((event) => event.type === 'TEXT_MESSAGE_START').map(idOf);
    expect(textIds).toHaveLength(1);
    expect(contentOf(events, textIds[0] as string).join('')).toBe('Let me answer.');
    expect(agent.messages.filter((message) => message.role !== 'user')).toEqual([
      expect.objectContaining({ id: reasoningIds[0], role: 'reasoning', content: 'First thought.' }),
      expect.objectContaining({ id: textIds[0], role: 'assistant', content: 'Let me answer.' }),
      expect.objectContaining({ id: reasoningIds[1], role: 'reasoning', content: 'Second thought.' }),
    ]);
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
  });
});
