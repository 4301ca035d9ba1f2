import { describe, expect, it } from 'vitest';
import { OpenAiGatewayError } from './openai-error.js';
import {
  forcesACall,
  SERIAL_TOOL_CALLS_REFUSAL,
  TOKEN_LIMIT_REFUSAL,
  toolsRefusal,
  unsupportedParameter,
  unsupportedValue,
} from './parameter-refusals.js';

describe('forcesACall', () => {
  it.each([['required'], [{ type: 'function', function: { name: 'f' } }], [{ name: 'f' }], [{}]])(
    'is true for %j, which makes the model call a tool',
    (choice) => {
      expect(forcesACall(choice)).toBe(true);
    },
  );

  it.each([['auto'], ['none'], [null], [undefined], ['function'], [1]])('is false for %j', (choice) => {
    expect(forcesACall(choice)).toBe(false);
  });
});

describe('the refusals', () => {
  it("are OpenAI's 400 invalid_request_error naming the parameter, with its code", () => {
    const value = unsupportedValue('tool_choice', "'tool_choice' supports only 'auto'.");
    expect(OpenAiGatewayError.isInstance(value)).toBe(true);
    expect(value).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      param: 'tool_choice',
      code: 'unsupported_value',
      message: "Unsupported value: 'tool_choice' supports only 'auto'.",
    });
    expect(unsupportedParameter('max_tokens', TOKEN_LIMIT_REFUSAL)).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      param: 'max_tokens',
      code: 'unsupported_parameter',
      message: `Unsupported parameter: 'max_tokens' ${TOKEN_LIMIT_REFUSAL}`,
    });
  });

  it('say what the client may send instead', () => {
    expect(toolsRefusal('tool_choice')).toContain("(sent with tool_choice: 'none',");
    expect(SERIAL_TOOL_CALLS_REFUSAL).toMatch(
      /^'parallel_tool_calls' does not support false: .*Supported values are: true\.$/,
    );
    expect(TOKEN_LIMIT_REFUSAL).toContain('llm.max_output_tokens');
  });
});
