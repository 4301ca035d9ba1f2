import { describe, expect, it } from 'vitest';
import { anthropicMessage } from './anthropic-response.js';

// Replies whose shape the local Anthropic server does not send (it answers one text block per turn).
describe('anthropicMessage', () => {
  it('joins several text blocks into the one text part a response holds, around a tool call', () => {
    const message = anthropicMessage({
      id: 'msg_1',
      content: [
        { type: 'text', text: 'Looking at the file. ' },
        { type: 'tool_use', id: 'toolu_1', name: 'file_editor', input: { command: 'view', path: '/w/a' } },
        { type: 'text', text: '' },
        { type: 'text', text: 'Then I will edit it.' },
      ],
      stop_reason: 'tool_use',
      usage: null,
    });
    expect(message.content).toEqual([
      { cache_prompt: false, type: 'text', text: 'Looking at the file. Then I will edit it.' },
    ]);
    expect(message.tool_calls?.map((call) => call.id)).toEqual(['toolu_1']);
  });

  it('gives no text part when every text block is empty', () => {
    const message = anthropicMessage({
      id: 'msg_2',
      content: [{ type: 'text', text: '' }],
      stop_reason: 'end_turn',
      usage: null,
    });
    expect(message.content).toEqual([]);
  });
});
