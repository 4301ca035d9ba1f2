// How `toLangChainMessages` writes LLM messages as real `@langchain/core` instances, in the cases the fixtures do not
// reach: senders, content as LangChain providers write it (a string when it is one text), thinking on a turn of calls
// alone, and which tool-call arguments LangChain can hold as `args` (a JSON object) and which it cannot.
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { Message } from '@x/events';
import { describe, expect, it } from 'vitest';
import { fromLangChainMessages, toLangChainMessages } from './index.js';

const text = (value: string) => ({ type: 'text' as const, text: value, cache_prompt: false });
const thinking = { type: 'thinking' as const, thinking: 'Check first.', signature: 'sig-2' };

function assistantCalling(args: string): Message {
  return {
    role: 'assistant',
    content: [],
    tool_calls: [{ id: 'call_1', name: 'terminal', arguments: args, origin: 'completion' }],
    thinking_blocks: [],
  };
}

describe('toLangChainMessages', () => {
  it("writes a user's name as the HumanMessage's name, and none when the message has none", async () => {
    const [named, anonymous] = await toLangChainMessages([
      { role: 'user', content: [text('hi')], name: 'alice', thinking_blocks: [] },
      { role: 'user', content: [text('hello')], thinking_blocks: [] },
    ]);
    expect(named).toBeInstanceOf(HumanMessage);
    expect(named).toMatchObject({ name: 'alice', content: 'hi' });
    expect(anonymous?.name).toBeUndefined();
  });

  it('writes content of one text as a string, no content as an empty string, and several parts as blocks', async () => {
    const [plain, callsOnly, mixed] = await toLangChainMessages([
      { role: 'assistant', content: [text('Done.')], thinking_blocks: [] },
      assistantCalling('{"command":"ls"}'),
      { role: 'assistant', content: [text('First.'), text('Second.')], thinking_blocks: [] },
    ]);
    expect(plain).toBeInstanceOf(AIMessage);
    expect(plain?.content).toBe('Done.');
    expect(callsOnly?.content).toBe('');
    expect(callsOnly?.tool_calls).toEqual([
      { id: 'call_1', name: 'terminal', args: { command: 'ls' }, type: 'tool_call' },
    ]);
    expect(mixed?.content).toEqual([
      { type: 'text', text: 'First.' },
      { type: 'text', text: 'Second.' },
    ]);
  });

  it('writes content of one image as a list of one image_url block, in a user message and a tool result', async () => {
    const url = 'https://example.com/chart.png';
    const image = { type: 'image' as const, image_urls: [url], cache_prompt: false };
    const [user, result] = await toLangChainMessages([
      { role: 'user', content: [image], thinking_blocks: [] },
      { role: 'tool', content: [image], tool_call_id: 'call_1', name: 'plot', thinking_blocks: [] },
    ]);
    expect(user?.content).toEqual([{ type: 'image_url', image_url: { url } }]);
    expect(result).toBeInstanceOf(ToolMessage);
    expect(result?.content).toEqual([{ type: 'image_url', image_url: { url } }]);
  });

  it('writes the thinking of a turn of calls alone as its only content, and reads it back onto the action', async () => {
    const [message] = await toLangChainMessages([{ ...assistantCalling('{}'), thinking_blocks: [thinking] }]);
    expect(message?.content).toEqual([thinking]);
    expect(fromLangChainMessages([message!])).toMatchObject([
      { kind: 'ActionEvent', thinking_blocks: [thinking], thought: [], tool_call: { id: 'call_1' } },
    ]);
  });

  it('takes empty arguments as no arguments (an empty args object), as a call of a tool without parameters', async () => {
    const [message] = await toLangChainMessages([assistantCalling('  ')]);
    expect(message?.tool_calls).toEqual([{ id: 'call_1', name: 'terminal', args: {}, type: 'tool_call' }]);
    expect(message?.invalid_tool_calls).toEqual([]);
  });

  it.each([
    ['a JSON array', '[1, 2]'],
    ['a JSON number', '42'],
    ['a JSON string', '"ls"'],
    ['JSON null', 'null'],
  ])('keeps arguments that are %s as an invalid tool call, text unchanged', async (_what, args) => {
    const [message] = await toLangChainMessages([assistantCalling(args)]);
    expect(message?.tool_calls).toEqual([]);
    expect(message?.invalid_tool_calls).toMatchObject([{ id: 'call_1', name: 'terminal', args }]);
    expect(fromLangChainMessages([message!])).toMatchObject([{ tool_call: { id: 'call_1', arguments: args } }]);
  });

  it('writes a tool result as a ToolMessage naming its call and tool', async () => {
    const [message] = await toLangChainMessages([
      { role: 'tool', content: [text('ok')], tool_call_id: 'call_1', name: 'terminal', thinking_blocks: [] },
    ]);
    expect(message).toBeInstanceOf(ToolMessage);
    expect(message).toMatchObject({ tool_call_id: 'call_1', name: 'terminal', content: 'ok' });
  });
});
