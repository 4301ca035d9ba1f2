// A ChatAnthropic stream with a tool call, concatenated as a LangChain user does (`chunk.concat`), imported whole.
import { AIMessage, AIMessageChunk, HumanMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { fromLangChainMessages } from './index.js';

describe('a streamed ChatAnthropic tool call, concatenated', () => {
  // The chunks ChatAnthropic makes of a stream (content_block_start, then input_json_delta pieces): LangChain's
  // concat keeps the input_json_delta blocks beside the tool_use block, and builds tool_calls from the chunks.
  const chunks = [
    new AIMessageChunk({ content: [{ index: 0, type: 'text', text: 'Let me ' }] }),
    new AIMessageChunk({ content: [{ index: 0, type: 'text', text: 'look.' }] }),
    new AIMessageChunk({
      content: [{ index: 1, type: 'tool_use', id: 'toolu_1', name: 'weather', input: '' }],
      tool_call_chunks: [{ index: 1, id: 'toolu_1', name: 'weather', args: '' }],
    }),
    new AIMessageChunk({
      content: [{ index: 1, type: 'input_json_delta', input: '{"city":' }],
      tool_call_chunks: [{ index: 1, args: '{"city":' }],
    }),
    new AIMessageChunk({
      content: [{ index: 1, type: 'input_json_delta', input: ' "Lyon"}' }],
      tool_call_chunks: [{ index: 1, args: ' "Lyon"}' }],
    }),
  ];

  it('is one call with the whole arguments, and the text as its thought', () => {
    const full = chunks.reduce((sum, chunk) => sum.concat(chunk));
    const events = fromLangChainMessages([new HumanMessage('Weather in Lyon?'), full]);
    expect(events.map((event) => event.kind)).toEqual(['MessageEvent', 'ActionEvent']);
    expect(events[1]).toMatchObject({
      thought: [{ text: 'Let me look.' }],
      tool_call: { id: 'toolu_1', name: 'weather', arguments: '{"city":"Lyon"}' },
    });
  });

  it('takes the arguments from the pieces when only the content names the call', () => {
    const full = chunks.reduce((sum, chunk) => sum.concat(chunk));
    const contentOnly = new AIMessage({ content: full.content as never });
    const events = fromLangChainMessages([new HumanMessage('Weather in Lyon?'), contentOnly]);
    expect(events[1]).toMatchObject({ tool_call: { id: 'toolu_1', name: 'weather', arguments: '{"city": "Lyon"}' } });
  });
});
