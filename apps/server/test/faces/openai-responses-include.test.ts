// What a Responses request may ask to be included, how it reasons and whether tools run in parallel, judged by the
// official `openai` SDK against a real server: an `include` value OpenAI does not know is its 400 `invalid_value`
// naming the value's index; a documented value the gateway cannot honour is an `unsupported_value` saying why; a
// reasoning summary and `parallel_tool_calls: false` are refused, since the answer could hold neither; and what it
// can honour is answered as usual, echoing `parallel_tool_calls`.
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
type Includable = OpenAI.Responses.ResponseIncludable;

/** The 400 `params` get, after checking that the model was asked nothing. */
async function refusalOf(params: Partial<Params>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const before = server.llm.requests.length;
  const error = await rejectionOf(client.responses.create({ model: 'x-terminal', input: 'hi', ...params } as Params));
  expect(error).toBeInstanceOf(OpenAI.BadRequestError);
  expect(server.llm.requests.length).toBe(before);
  return error as InstanceType<typeof OpenAI.APIError>;
}

describe('include', () => {
  it('refuses a value OpenAI does not know, naming its index and the values taken', async () => {
    const error = await refusalOf({ include: ['web_search_call.results', 'output_text.everything' as Includable] });
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'include[1]' });
    expect(error.code).toBe('invalid_value');
    expect(error.message).toContain("'output_text.everything'");
    expect(error.message).toContain("'file_search_call.results'");
  });

  it('refuses log probabilities, which the answer could not hold, naming the index and why', async () => {
    const error = await refusalOf({ include: ['file_search_call.results', 'message.output_text.logprobs'] });
    expect(error).toMatchObject({ param: 'include[1]', code: 'unsupported_value' });
    expect(error.message).toContain('not one sampling');
  });

  it('takes the values the answer holds anyway, and answers', async () => {
    server.llm.push(finishReply('Included.'));
    const response = await client.responses.create({
      model: 'x-terminal',
      input: 'hi',
      store: false,
      include: [
        'reasoning.encrypted_content',
        'file_search_call.results',
        'web_search_call.results',
        'web_search_call.action.sources',
        'code_interpreter_call.outputs',
        'computer_call_output.output.image_url',
        'message.input_image.image_url',
      ],
    });
    expect(response.output_text).toBe('Included.');
  });
});

describe('reasoning', () => {
  it.each([
    ['summary', { summary: 'auto' }],
    ['generate_summary', { generate_summary: 'detailed' }],
  ] as const)('refuses a %s: the answer has no reasoning item', async (field, reasoning) => {
    const error = await refusalOf({ reasoning });
    expect(error).toMatchObject({ param: `reasoning.${field}`, code: 'unsupported_parameter' });
    expect(error.message).toContain('no reasoning item');
  });

  it('takes an effort (it tunes the model, as temperature does) and a summary of null', async () => {
    server.llm.push(finishReply('Reasoned.'));
    const response = await client.responses.create({
      model: 'x-terminal',
      input: 'hi',
      reasoning: { effort: 'low', summary: null },
    });
    expect(response.output_text).toBe('Reasoned.');
  });
});

describe('parallel_tool_calls', () => {
  it('refuses false: the agent may call several tools in one step', async () => {
    const error = await refusalOf({ parallel_tool_calls: false });
    expect(error).toMatchObject({ param: 'parallel_tool_calls', code: 'unsupported_value' });
  });

  it('echoes true, asked or not, in the response and when retrieved', async () => {
    for (const asked of [true, undefined]) {
      server.llm.push(finishReply('Parallel.'));
      const response = await client.responses.create({ model: 'x-terminal', input: 'hi', parallel_tool_calls: asked });
      expect(response.parallel_tool_calls).toBe(true);
      expect((await client.responses.retrieve(response.id)).parallel_tool_calls).toBe(true);
    }
  });
});
