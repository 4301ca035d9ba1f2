// `usage` as the official `openai` SDK reads it from the gateway of a real server: a completion (or a response) reports
// the tokens of the model calls its own request made, as OpenAI does, never the running total of the conversation it
// continues; whole, and streamed (`stream_options.include_usage`, `response.completed`).
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply, removeDir, type TestServer } from '../helpers.js';
import { CONVERSATION_HEADER, startGateway } from '../support/openai-gateway.js';

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  ({ server, client } = await startGateway());
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

const header = (id: string) => ({ headers: { [CONVERSATION_HEADER]: id } });

/** A scripted answer whose model call counts `prompt` and `completion` tokens. */
const answer = (text: string, prompt: number, completion: number) => ({
  ...finishReply(text),
  usage: { prompt_tokens: prompt, completion_tokens: completion },
});

/** A conversation whose first turn spent two model calls (7 + 5 prompt, 3 + 2 completion tokens): its id. */
async function conversationWithHistory(): Promise<string> {
  server.llm.push(
    {
      toolCalls: [{ name: 'terminal', arguments: { command: 'echo first' } }],
      usage: { prompt_tokens: 7, completion_tokens: 3 },
    },
    answer('first', 5, 2),
  );
  const { data, response } = await client.chat.completions
    .create({ model: 'x-terminal', messages: [{ role: 'user', content: 'first turn' }] })
    .withResponse();
  expect(data.usage).toEqual({ prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 });
  return response.headers.get(CONVERSATION_HEADER) as string;
}

describe('chat completion usage', () => {
  it('of a turn continuing a conversation counts only its own model calls', async () => {
    const id = await conversationWithHistory();
    server.llm.push(answer('second', 11, 4));
    const second = await client.chat.completions.create(
      { model: 'x-terminal', messages: [{ role: 'user', content: 'second turn' }] },
      header(id),
    );
    expect(second.usage).toEqual({ prompt_tokens: 11, completion_tokens: 4, total_tokens: 15 });
  });

  it('streamed with include_usage counts only its own model calls', async () => {
    const id = await conversationWithHistory();
    server.llm.push(answer('second', 13, 6));
    const stream = await client.chat.completions.create(
      {
        model: 'x-terminal',
        messages: [{ role: 'user', content: 'second turn' }],
        stream: true,
        stream_options: { include_usage: true },
      },
      header(id),
    );
    const usages: unknown[] = [];
    for await (const chunk of stream) if (chunk.usage) usages.push(chunk.usage);
    expect(usages).toEqual([{ prompt_tokens: 13, completion_tokens: 6, total_tokens: 19 }]);
  });
});

describe('response usage', () => {
  it('of a response continuing a conversation by its header counts only its own model calls, whole and streamed', async () => {
    const id = await conversationWithHistory();
    server.llm.push(answer('second', 11, 4), answer('third', 9, 1));
    const second = await client.responses.create({ model: 'x-terminal', input: 'second turn' }, header(id));
    expect(second.usage).toMatchObject({ input_tokens: 11, output_tokens: 4, total_tokens: 15 });
    const stream = await client.responses.create({ model: 'x-terminal', input: 'third', stream: true }, header(id));
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) if (event.type === 'response.completed') completed = event.response;
    expect(completed?.usage).toMatchObject({ input_tokens: 9, output_tokens: 1, total_tokens: 10 });
  });
});
