import { describe, expect, it } from 'vitest';
import { OpenAiGatewayError } from './openai-error.js';
import { type ResponsesRequest, responsesTurnOf } from './responses-request.js';

/** The message of the error reading `input` throws (a test fails when it throws none). */
function refusalOf(input: ResponsesRequest['input']): string {
  try {
    responsesTurnOf({ model: 'm', input });
  } catch (error) {
    if (OpenAiGatewayError.isInstance(error)) return error.message;
    throw error;
  }
  throw new Error('expected an OpenAiGatewayError, nothing was thrown');
}

// What a client reads in the error to fix its request: which item is in the way and what a message may hold.
describe('the refusals of responsesTurnOf say what to send instead', () => {
  it('name the parts a user message may hold, images included, and the one a system message may', () => {
    expect(refusalOf([{ role: 'user', content: [{ type: 'input_file', file_id: 'file-1' }] }])).toContain(
      "Unsupported content part type 'input_file' in a user message (input_text and input_image are)",
    );
    expect(
      refusalOf([
        { role: 'system', content: [{ type: 'input_file', file_id: 'file-1' }] },
        { role: 'user', content: 'hi' },
      ]),
    ).toContain("Unsupported content part type 'input_file' in a system message (input_text is)");
  });

  it('name a last user message whose content is null as one with no content', () => {
    expect(refusalOf([{ role: 'user', content: null }])).toBe('The last user message has no content');
    expect(
      refusalOf([
        { role: 'developer', content: null },
        { role: 'user', content: null },
      ]),
    ).toBe('The last user message has no content');
  });

  it('name the message or the item after the last user message by its role or type', () => {
    expect(
      refusalOf([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'partial' },
      ]),
    ).toContain("input[1] is an 'assistant' message after the last user message");
    expect(
      refusalOf([
        { role: 'user', content: 'hi' },
        { type: 'function_call_output', call_id: 'c', output: 'r' },
      ]),
    ).toContain("input[1] is a 'function_call_output' item after the last user message");
  });
});
