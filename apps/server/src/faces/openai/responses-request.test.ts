import { describe, expect, it } from 'vitest';
import { OpenAiGatewayError } from './openai-error.js';
import { type ResponsesRequest, responsesTurnOf } from './responses-request.js';

const turnOf = (fields: Partial<ResponsesRequest>) => responsesTurnOf({ model: 'm', ...fields });

/** The error `run` throws (a test fails when it throws none). */
function thrownBy(run: () => unknown): OpenAiGatewayError {
  try {
    run();
  } catch (error) {
    if (OpenAiGatewayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an OpenAiGatewayError, nothing was thrown');
}

describe('responsesTurnOf', () => {
  it('reads a string input as one user message, instructions as the system text', () => {
    expect(turnOf({ input: 'hello', instructions: 'Be brief.' })).toEqual({
      user: [{ type: 'text', text: 'hello', cache_prompt: false }],
      system: 'Be brief.',
    });
  });

  it('takes the latest user item, its parts in order, and joins instructions with system and developer text', () => {
    const turn = turnOf({
      instructions: 'First.',
      input: [
        { role: 'system', content: 'Second.' },
        { role: 'user', content: 'earlier' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] },
        { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c', output: 'r' },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'now' },
            { type: 'input_image', image_url: 'https://images.example/a.png' },
          ],
        },
        { role: 'developer', content: [{ type: 'input_text', text: 'Third.' }] },
      ],
    });
    expect(turn.user).toEqual([
      { type: 'text', text: 'now', cache_prompt: false },
      { type: 'image', image_urls: ['https://images.example/a.png'], cache_prompt: false },
    ]);
    expect(turn.system).toBe('First.\n\nSecond.\n\nThird.');
  });

  it.each<[string, Partial<ResponsesRequest>, string | null, string]>([
    ['no input', {}, 'input', 'invalid_request'],
    ['no user message', { input: [{ role: 'developer', content: 'x' }] }, 'input', 'invalid_request'],
    ['an empty user message', { input: [{ role: 'user', content: [] }] }, 'input[0].content', 'invalid_request'],
    ['an unknown role', { input: [{ type: 'message', role: 'tool', content: 'x' }] }, 'input[0].role', 'invalid_value'],
    [
      'an assistant message after the last user message',
      {
        input: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: 'y' },
        ],
      },
      'input[1]',
      'unsupported_value',
    ],
    [
      'a function call output after the last user message',
      {
        input: [
          { role: 'user', content: 'x' },
          { type: 'function_call_output', call_id: 'c', output: 'r' },
        ],
      },
      'input[1]',
      'unsupported_value',
    ],
    [
      'an image without a url',
      { input: [{ role: 'user', content: [{ type: 'input_image' }] }] },
      'input[0].content[0].image_url',
      'invalid_request',
    ],
    [
      'an image in a system message',
      {
        input: [
          { role: 'system', content: [{ type: 'input_image', image_url: 'https://images.example/a.png' }] },
          { role: 'user', content: 'x' },
        ],
      },
      'input[0].content[0].type',
      'unsupported_value',
    ],
  ])('refuses %s, naming where', (_name, fields, param, code) => {
    const error = thrownBy(() => turnOf(fields));
    expect({ status: error.status, param: error.param, code: error.code }).toEqual({ status: 400, param, code });
  });
});
