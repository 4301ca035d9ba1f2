// An AIMessage as ChatGoogleGenerativeAI (@langchain/google-genai) makes it of a Gemini turn with a function call: the
// call is in tool_calls (with an id it made up) and again in the content, as a `functionCall` block (no id).
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { fromLangChainMessages } from './index.js';

const geminiTurn = () =>
  new AIMessage({
    content: [
      { type: 'thinking', thinking: 'The user wants the weather.', signature: 'c2ln' },
      { type: 'text', text: 'Checking.' },
      { type: 'functionCall', functionCall: { name: 'weather', args: { city: 'Lyon' } } },
      { type: 'functionCall', functionCall: { name: 'weather', args: { city: 'Paris' } } },
    ],
    tool_calls: [
      { id: 'f1', name: 'weather', args: { city: 'Lyon' }, type: 'tool_call' },
      { id: 'f2', name: 'weather', args: { city: 'Paris' }, type: 'tool_call' },
    ],
  });

describe('a Gemini turn from ChatGoogleGenerativeAI', () => {
  it('is one action per call (the functionCall blocks repeat tool_calls), each answered by its ToolMessage', () => {
    const events = fromLangChainMessages([
      new HumanMessage('Weather in Lyon and Paris?'),
      geminiTurn(),
      new ToolMessage({ content: 'Sunny', tool_call_id: 'f1' }),
      new ToolMessage({ content: 'Rainy', tool_call_id: 'f2' }),
    ]);
    expect(events.map((event) => event.kind)).toEqual([
      'MessageEvent',
      'ActionEvent',
      'ActionEvent',
      'ObservationEvent',
      'ObservationEvent',
    ]);
    expect(events[1]).toMatchObject({
      thought: [{ text: 'Checking.' }],
      thinking_blocks: [{ type: 'thinking', thinking: 'The user wants the weather.', signature: 'c2ln' }],
      tool_call: { id: 'f1', name: 'weather', arguments: '{"city":"Lyon"}' },
    });
    expect(events[2]).toMatchObject({ tool_call: { id: 'f2', arguments: '{"city":"Paris"}' } });
  });

  it('takes a functionCall block only the content names as a call of its own', () => {
    const turn = new AIMessage({
      content: [
        { type: 'functionCall', functionCall: { name: 'weather', args: { city: 'Lyon' } } },
        { type: 'functionCall', functionCall: { name: 'clock', args: {} } },
      ],
      tool_calls: [{ id: 'f1', name: 'weather', args: { city: 'Lyon' }, type: 'tool_call' }],
    });
    const events = fromLangChainMessages([new HumanMessage('Weather and time?'), turn]);
    expect(events.slice(1)).toMatchObject([
      { kind: 'ActionEvent', tool_call: { id: 'f1', name: 'weather' } },
      { kind: 'ActionEvent', tool_call: { name: 'clock', arguments: '{}' } },
    ]);
  });
});
