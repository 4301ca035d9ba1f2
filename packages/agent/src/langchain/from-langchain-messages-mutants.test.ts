// What `fromLangChainMessages` keeps of real `@langchain/core` messages that the interop tests leave out: a turn of
// several calls answered in order (one failed), thinking on a turn without calls, senders, calls without ids, system
// prompts written as blocks, and the blocks it must refuse.
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { type AnyEvent, ChatImportError } from '@x/events';
import { describe, expect, it } from 'vitest';
import { eventsToLangChainMessages, fromLangChainMessages, type LangChainMessage } from './index.js';

const asEvents = (messages: BaseMessage[]): AnyEvent[] => fromLangChainMessages(messages as LangChainMessage[]);

const thinking = { type: 'thinking', thinking: 'Both cities at once.', signature: 'sig-1' };
const call = (id: string, city: string) => ({ id, name: 'weather', args: { city }, type: 'tool_call' as const });

describe('fromLangChainMessages, event by event', () => {
  it('puts thinking and error flags on the events of their own messages, whatever the turns before made', () => {
    const events = asEvents([
      new HumanMessage('Weather in Lyon and Oslo?'),
      new AIMessage('Let me check.'),
      new AIMessage({ content: [thinking], tool_calls: [call('call_l', 'Lyon'), call('call_o', 'Oslo')] }),
      new ToolMessage({ content: 'Sunny', tool_call_id: 'call_l', name: 'weather' }),
      new ToolMessage({ content: 'Service down', tool_call_id: 'call_o', name: 'weather', status: 'error' }),
      new AIMessage({
        content: [
          { ...thinking, thinking: 'One answer failed.' },
          { type: 'text', text: 'Lyon: sunny.' },
        ],
      }),
    ]);
    expect(events).toMatchObject([
      { kind: 'MessageEvent', source: 'user' },
      {
        kind: 'MessageEvent',
        source: 'agent',
        llm_message: { content: [{ text: 'Let me check.' }], thinking_blocks: [] },
      },
      { kind: 'ActionEvent', tool_call_id: 'call_l', thinking_blocks: [thinking] },
      { kind: 'ActionEvent', tool_call_id: 'call_o', thinking_blocks: [] },
      { kind: 'ObservationEvent', tool_call_id: 'call_l', observation: { is_error: false } },
      { kind: 'ObservationEvent', tool_call_id: 'call_o', observation: { is_error: true } },
      {
        kind: 'MessageEvent',
        source: 'agent',
        llm_message: { thinking_blocks: [{ ...thinking, thinking: 'One answer failed.' }] },
      },
    ]);
  });

  it('keeps the thinking of a turn without calls through a round trip, first in its content', async () => {
    const answer = new AIMessage({ content: [thinking, { type: 'text', text: 'Sunny in both.' }] });
    const back = await eventsToLangChainMessages(asEvents([new HumanMessage('Weather?'), answer]));
    expect(back[1]).toBeInstanceOf(AIMessage);
    expect(back[1]?.content).toEqual([thinking, { type: 'text', text: 'Sunny in both.' }]);
  });

  it("takes a message's name as the event's sender, and an empty name as none", () => {
    const events = asEvents([
      new HumanMessage({ content: 'hi', name: 'alice' }),
      new AIMessage({ content: 'hello', name: 'helper' }),
      new HumanMessage({ content: 'again', name: '' }),
      new AIMessage({ content: 'yes', name: '' }),
    ]);
    expect(events.map((event) => (event.kind === 'MessageEvent' ? event.sender : 'not a message'))).toEqual([
      'alice',
      'helper',
      undefined,
      undefined,
    ]);
    expect(events[2]).not.toHaveProperty('sender');
    expect(events[3]).not.toHaveProperty('sender');
  });

  it('gives calls with an empty id ids of their own, so each action can be told apart and answered', async () => {
    const turn = new AIMessage({ content: '', tool_calls: [call('', 'Lyon'), call('', 'Oslo')] });
    const events = asEvents([new HumanMessage('Both?'), turn]);
    const ids = events.flatMap((event) => (event.kind === 'ActionEvent' ? [event.tool_call_id] : []));
    expect(ids).toHaveLength(2);
    expect(ids.every((id) => id !== '')).toBe(true);
    expect(new Set(ids).size).toBe(2);
    // Each can then be answered by its id, and the answered turn goes back to LangChain with the same ids.
    const answers = ids.map((id, at) => new ToolMessage({ content: at === 0 ? 'Sunny' : 'Snow', tool_call_id: id }));
    const answered = asEvents([new HumanMessage('Both?'), turn, ...answers]);
    expect(answered.slice(3)).toMatchObject([
      { kind: 'ObservationEvent', observation: { content: [{ text: 'Sunny' }] } },
      { kind: 'ObservationEvent', observation: { content: [{ text: 'Snow' }] } },
    ]);
    const back = await eventsToLangChainMessages(answered);
    expect(back[1]?.tool_calls?.map((toolCall) => toolCall.id)).toEqual(ids);
    expect(back.slice(2).map((message) => message.tool_call_id)).toEqual(ids);
  });

  it('refuses a tool message that names no call, saying so', () => {
    const turn = new AIMessage({ content: '', tool_calls: [call('call_l', 'Lyon')] });
    const unnamed = { type: 'tool', content: 'Sunny' } satisfies LangChainMessage;
    const refused = () => fromLangChainMessages([turn as LangChainMessage, unnamed]);
    expect(refused).toThrow(ChatImportError);
    expect(refused).toThrow(/message 1 \(tool_call_id\).*must name its tool call/);
  });

  it('joins the text blocks of a system prompt with newlines', () => {
    const system = new SystemMessage({
      content: [
        { type: 'text', text: 'You are terse.' },
        { type: 'text', text: 'Answer in French.' },
      ],
    });
    expect(asEvents([system])).toMatchObject([
      { kind: 'SystemPromptEvent', system_prompt: { text: 'You are terse.\nAnswer in French.' } },
    ]);
  });

  it('refuses a plain-text document block (v1 text-plain) in a system or user message, though it carries text', () => {
    const document = { type: 'text-plain', text: 'notes.txt contents', mimeType: 'text/plain' };
    const system = new SystemMessage({ content: [{ type: 'text', text: 'Read this.' }, document] });
    const user = new HumanMessage({ content: [{ type: 'text', text: 'Summarise:' }, document] });
    expect(() => asEvents([system])).toThrow(ChatImportError);
    expect(() => asEvents([system])).toThrow(/message 0 \(content\[1\]\.type\).*"text-plain"/);
    expect(() => asEvents([new SystemMessage('hi'), user])).toThrow(/message 1 \(content\[1\]\.type\).*"text-plain"/);
  });
});
