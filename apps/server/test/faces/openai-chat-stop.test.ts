// `stop` on the chat face, judged by the official `openai` SDK against a real server: the agent's final answer ends
// before the first stop sequence it holds (the sequence left out, finish_reason 'stop', as OpenAI ends a completion
// that generated one), whole and streamed alike; an answer holding none is whole.
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply, removeDir, type TestServer } from '../helpers.js';
import { startGateway } from '../support/openai-gateway.js';

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  ({ server, client } = await startGateway());
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

const ANSWER = 'Two files: a.txt and b.txt.\n\nBoth are empty.';
const user = [{ role: 'user' as const, content: 'What is in the workspace?' }];

async function answerWith(stop: OpenAI.ChatCompletionCreateParams['stop']): Promise<OpenAI.ChatCompletion> {
  server.llm.push(finishReply(ANSWER));
  return client.chat.completions.create({ model: 'x-terminal', messages: user, stop });
}

describe('stop', () => {
  it('ends the answer before the sequence, which is left out', async () => {
    const completion = await answerWith('\n\n');
    expect(completion.choices[0]).toMatchObject({
      finish_reason: 'stop',
      message: { content: 'Two files: a.txt and b.txt.' },
    });
  });

  it('ends it at the earliest of several sequences, whatever their order in the list', async () => {
    const completion = await answerWith(['empty', 'b.txt', ' and ']);
    expect(completion.choices[0]?.message.content).toBe('Two files: a.txt');
  });

  it('leaves nothing of an answer that opens with one', async () => {
    const completion = await answerWith(['Two files', 'empty']);
    expect(completion.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: '' } });
  });

  it('leaves an answer that holds none of them whole', async () => {
    const completion = await answerWith(['###', 'END']);
    expect(completion.choices[0]?.message.content).toBe(ANSWER);
  });

  it('cuts a streamed answer the same way', async () => {
    server.llm.push(finishReply(ANSWER));
    const stream = await client.chat.completions.create({
      model: 'x-terminal',
      messages: user,
      stop: ['b.txt'],
      stream: true,
    });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Two files: a.txt and ');
    expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason).filter(Boolean)).toEqual(['stop']);
  });
});
