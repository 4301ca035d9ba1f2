import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import type { AnyEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { fromLangChainMessages } from './from-langchain-messages.js';
import type { LangChainMessage } from './langchain-message.js';
import { eventsToLangChainMessages } from './stored-messages.js';
import { toLangChainMessages } from './to-langchain-messages.js';

const messages = [
  new SystemMessage({ content: 'Be brief.' }),
  new HumanMessage({ content: 'hi', name: 'alice' }),
  new AIMessage({ content: 'Hello Alice.', name: 'greeter' }),
  new HumanMessage({ content: 'weather?', name: 'bob' }),
  new AIMessage({
    content: '',
    invalid_tool_calls: [
      { id: 'c1', name: 'weather', args: '{"city": "Ly', error: 'truncated', type: 'invalid_tool_call' },
      { id: 'c2', name: 'weather', error: 'no arguments', type: 'invalid_tool_call' },
    ],
  }),
  new ToolMessage({ content: 'bad arguments', tool_call_id: 'c1', name: 'weather', status: 'error' }),
  new ToolMessage({ content: 'sunny', tool_call_id: 'c2', name: 'weather' }),
] as unknown as LangChainMessage[];

function kinds(events: readonly AnyEvent[]) {
  return events.map((event) => event.kind);
}

describe('LangChain names and invalid tool calls, through @langchain/core', () => {
  it('carries message names into the log and back out', async () => {
    const events = fromLangChainMessages(messages);
    expect(events.filter((event) => event.kind === 'MessageEvent').map((event) => event.sender)).toEqual([
      'alice',
      'greeter',
      'bob',
    ]);
    const back = await eventsToLangChainMessages(events);
    const names = back.map((message) => [(message as { _getType(): string })._getType(), message.name]);
    expect(names).toEqual([
      ['system', undefined],
      ['human', 'alice'],
      ['ai', 'greeter'],
      ['human', 'bob'],
      ['ai', undefined],
      ['tool', 'weather'],
      ['tool', 'weather'],
    ]);
    expect(back[2]).toBeInstanceOf(AIMessage);
  });

  it('writes the name of an LLM message of any role (system and assistant included)', async () => {
    const [system, assistant] = await toLangChainMessages([
      { role: 'system', content: [{ type: 'text', text: 's', cache_prompt: false }], thinking_blocks: [], name: 'ops' },
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'a', cache_prompt: false }],
        thinking_blocks: [],
        name: 'bot',
      },
    ]);
    expect(system).toBeInstanceOf(SystemMessage);
    expect(system?.name).toBe('ops');
    expect(assistant?.name).toBe('bot');
  });

  it('records an invalid tool call (arguments that do not parse, or none) as an action of the log, answered', async () => {
    const events = fromLangChainMessages(messages);
    expect(kinds(events).filter((kind) => kind === 'ActionEvent')).toHaveLength(2);
    const actions = events.filter((event) => event.kind === 'ActionEvent');
    expect(actions.map((action) => [action.tool_call.id, action.tool_call.name, action.tool_call.arguments])).toEqual([
      ['c1', 'weather', '{"city": "Ly'],
      ['c2', 'weather', ''],
    ]);
    const back = await eventsToLangChainMessages(events);
    const ai = back[4] as AIMessage;
    expect(ai.invalid_tool_calls?.map((call) => [call.id, call.args])).toEqual([['c1', '{"city": "Ly']]);
    expect(ai.tool_calls?.map((call) => [call.id, call.args])).toEqual([['c2', {}]]);
  });
});
