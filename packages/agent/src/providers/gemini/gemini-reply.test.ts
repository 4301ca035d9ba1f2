import { describe, expect, it } from 'vitest';
import { geminiFinishReason, geminiMessage } from './gemini-reply.js';

describe('geminiFinishReason', () => {
  it.each([
    ['STOP', 'stop'],
    ['MAX_TOKENS', 'length'],
    // The per-request token limit with the answer unfinished: truncated, as MAX_TOKENS.
    ['CONTINUATION', 'length'],
    ['SAFETY', 'content_filter'],
    ['RECITATION', 'content_filter'],
    ['BLOCKLIST', 'content_filter'],
    ['PROHIBITED_CONTENT', 'content_filter'],
    ['SPII', 'content_filter'],
    ['IMAGE_SAFETY', 'content_filter'],
    ['IMAGE_PROHIBITED_CONTENT', 'content_filter'],
    ['IMAGE_RECITATION', 'content_filter'],
    ['ESCALATION', 'content_filter'],
    ['PUP_LIMITED_DISABLED', 'content_filter'],
    ['MODEL_ARMOR', 'content_filter'],
    ['MALFORMED_FUNCTION_CALL', 'stop'],
    ['FINISH_REASON_UNSPECIFIED', 'stop'],
  ])('maps %s to %s', (raw, expected) => {
    expect(geminiFinishReason(raw, false)).toBe(expected);
  });

  it('reports tool calls whatever the raw reason, and nothing before the model has stopped', () => {
    expect(geminiFinishReason('STOP', true)).toBe('tool_calls');
    expect(geminiFinishReason(undefined, true)).toBe('tool_calls');
    expect(geminiFinishReason(undefined, false)).toBeNull();
  });
});

describe('geminiMessage', () => {
  it('joins the text parts around a function call into the one text part a response holds (as the stream does)', () => {
    const message = geminiMessage(
      [
        { text: 'Reading it. ' },
        { functionCall: { id: 'call_1', name: 'terminal', args: { command: 'ls' } } },
        { text: 'Then done.' },
        { text: 'thinking', thought: true },
      ],
      'resp_1',
    );
    expect(message.content).toEqual([{ cache_prompt: false, type: 'text', text: 'Reading it. Then done.' }]);
    expect(message.tool_calls?.map((call) => call.name)).toEqual(['terminal']);
    expect(message.reasoning_content).toBe('thinking');
  });
});
