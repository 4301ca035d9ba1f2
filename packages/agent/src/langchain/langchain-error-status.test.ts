// A tool that failed, through LangChain and back: LangChain marks its ToolMessage `status: 'error'` (ToolNode, and
// ChatAnthropic sends it as the tool_result's is_error), events mark the observation `is_error`; each way keeps it.
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { createEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { eventsToLangChainMessages, fromLangChainMessages } from './index.js';

const call = (id: string) => ({ id, name: 'weather', args: { city: 'Lyon' }, type: 'tool_call' as const });

describe('a failed tool result through LangChain', () => {
  it("writes an error observation as a ToolMessage with status 'error', which imports as an error again", async () => {
    const events = fromLangChainMessages([
      new HumanMessage('Weather in Lyon, twice?'),
      new AIMessage({ content: '', tool_calls: [call('ok'), call('bad')] }),
      new ToolMessage({ content: 'Sunny', tool_call_id: 'ok' }),
      new ToolMessage({ content: 'service down', tool_call_id: 'bad', status: 'error' }),
    ]);
    const messages = await eventsToLangChainMessages(events);
    const results = messages.filter((message) => message.tool_call_id !== undefined);
    expect(results.map((message) => [message.tool_call_id, message.status])).toEqual([
      ['ok', undefined],
      ['bad', 'error'],
    ]);
    const again = fromLangChainMessages(messages);
    expect(
      again.flatMap((event) =>
        event.kind === 'ObservationEvent' ? [[event.tool_call_id, event.observation.is_error]] : [],
      ),
    ).toEqual([
      ['ok', false],
      ['bad', true],
    ]);
  });

  it("writes an AgentErrorEvent answering a call (a tool that could not run) as status 'error'", async () => {
    const [human, action] = fromLangChainMessages([
      new HumanMessage('Weather?'),
      new AIMessage({ content: '', tool_calls: [call('c1')] }),
    ]);
    const error = createEvent('AgentErrorEvent', {
      source: 'agent',
      tool_name: 'weather',
      tool_call_id: 'c1',
      error: 'weather is not a tool',
    });
    const messages = await eventsToLangChainMessages([human!, action!, error]);
    expect(messages.at(-1)).toMatchObject({ tool_call_id: 'c1', status: 'error' });
  });
});
