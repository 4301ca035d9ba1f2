// Responses parameters the gateway takes as they are, judged by the official `openai` SDK against a real server whose
// agent uses the scripted model on loopback: a client that keeps no state (store: false) and asks for its reasoning
// back encrypted, or for hosted tools' sources, is answered (only log probabilities are refused in `include`), and so
// is one that turns tools off with no tools, or sends the options it does not use as null; a refusal says what is
// supported instead; an input item with an empty type is refused, not passed over.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply, removeDir, type TestServer } from '../helpers.js';
import { rejectionOf, startGateway } from '../support/openai-gateway.js';

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  ({ server, client } = await startGateway());
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

type Params = OpenAI.Responses.ResponseCreateParamsNonStreaming;

describe('a request the gateway answers as usual', () => {
  it.each<[string, Partial<Params>]>([
    [
      'includes encrypted reasoning and sources',
      { include: ['reasoning.encrypted_content', 'web_search_call.action.sources'], store: false },
    ],
    ["turns tools off with tool_choice 'none' and no tools", { tool_choice: 'none' }],
    ['asks for no log probabilities', { top_logprobs: 0 }],
    [
      'sends unused options as null',
      { background: null, top_logprobs: null, text: { format: null } } as unknown as Partial<Params>,
    ],
  ])('%s', async (_name, params) => {
    server.llm.push(finishReply('Answered.'));
    const response = await client.responses.create({ model: 'x-terminal', input: 'hi', ...params } as Params);
    expect(response).toMatchObject({ status: 'completed', output_text: 'Answered.' });
  });

  it('but not when log probabilities are among what it includes', async () => {
    const before = server.llm.requests.length;
    const error = await rejectionOf(
      client.responses.create({
        model: 'x-terminal',
        input: 'hi',
        include: ['reasoning.encrypted_content', 'message.output_text.logprobs'],
      }),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ param: 'include[1]', code: 'unsupported_value' });
    expect(server.llm.requests.length).toBe(before);
  });
});

describe('a refusal says what the gateway takes instead', () => {
  it('background: true names background and says only false is supported', async () => {
    const before = server.llm.requests.length;
    const error = await rejectionOf(client.responses.create({ model: 'x-terminal', input: 'hi', background: true }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ param: 'background', code: 'unsupported_value' });
    expect((error as Error).message).toMatch(
      /^400 Unsupported value: 'background' does not support true: .*Supported values are: false\.$/,
    );
    expect(server.llm.requests.length).toBe(before);
  });
});

describe('an input item with an empty type', () => {
  it('is a 400 naming it, not an item of no kind passed over as history', async () => {
    const before = server.llm.requests.length;
    const error = await rejectionOf(
      client.responses.create({
        model: 'x-terminal',
        input: [
          { type: '', role: 'user', content: 'Read this first' },
          { role: 'user', content: 'hi' },
        ] as unknown as Params['input'],
      }),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ param: 'input[0].type' });
    expect(server.llm.requests.length).toBe(before);
  });
});
