import type { Message } from '@x/events';
import { describe, expect, it } from 'vitest';
import { toGeminiContents } from './gemini-render.js';

const text = (value: string) => ({ cache_prompt: false, type: 'text' as const, text: value });

describe('toGeminiContents', () => {
  it('renders system, user, model calls with their signatures, and the results of parallel calls in one turn', () => {
    const messages: Message[] = [
      { role: 'system', content: [text('Be brief.')], thinking_blocks: [] },
      {
        role: 'user',
        content: [text('Look'), { cache_prompt: false, type: 'image', image_urls: ['data:image/png;base64,AAAA'] }],
        thinking_blocks: [],
      },
      {
        role: 'assistant',
        content: [text('Checking.')],
        thinking_blocks: [],
        tool_calls: [
          { id: 'gcall_r_0__thought__SIG', name: 'a', arguments: '{"x":1}', origin: 'completion' },
          { id: 'real-id', name: 'b', arguments: 'not json', origin: 'completion' },
        ],
      },
      { role: 'tool', tool_call_id: 'gcall_r_0__thought__SIG', name: 'a', content: [text('one')], thinking_blocks: [] },
      { role: 'tool', tool_call_id: 'real-id', name: 'b', content: [text('two')], thinking_blocks: [] },
    ];
    expect(toGeminiContents(messages, { vision: true })).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Look' }, { inlineData: { mimeType: 'image/png', data: 'AAAA' } }] },
        {
          role: 'model',
          parts: [
            { text: 'Checking.' },
            { functionCall: { name: 'a', args: { x: 1 } }, thoughtSignature: 'SIG' },
            { functionCall: { id: 'real-id', name: 'b', args: { arguments: 'not json' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'a', response: { output: 'one' } } },
            { functionResponse: { id: 'real-id', name: 'b', response: { output: 'two' } } },
          ],
        },
      ],
    });
  });
});
