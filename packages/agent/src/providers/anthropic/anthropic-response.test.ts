import { describe, expect, it } from 'vitest';
import { anthropicFinishReason } from './anthropic-response.js';

describe('anthropicFinishReason', () => {
  it('maps the known stop reasons', () => {
    expect(['end_turn', 'tool_use', 'max_tokens', 'refusal'].map(anthropicFinishReason)).toEqual([
      'stop',
      'tool_calls',
      'length',
      'content_filter',
    ]);
    expect(anthropicFinishReason(null)).toBeNull();
  });

  it('takes a stop reason named like an inherited property as an unknown one (stop)', () => {
    for (const reason of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(anthropicFinishReason(reason)).toBe('stop');
    }
  });
});
