// The LangChain interop used as a LangChain user would: messages as ChatAnthropic and LangChain v1's standard content
// blocks write them, a real `tool()` answering the AIMessage's tool call, a model's stream concatenated chunk by chunk
// (with the callbacks it calls), and images in every block shape; each round trip keeps what events can hold.
import {
  AIMessage,
  AIMessageChunk,
  type BaseMessage,
  HumanMessage,
  mapChatMessagesToStoredMessages,
  ToolMessage,
} from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { type AnyEvent, OBSERVATION_ERROR_HEADER } from '@x/events';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eventsToLangChainMessages, fromLangChainMessages, type LangChainMessage } from './index.js';

const asEvents = (messages: BaseMessage[]): AnyEvent[] => fromLangChainMessages(messages as LangChainMessage[]);

const weather = tool(async ({ city }: { city: string }) => `Sunny in ${city}`, {
  name: 'weather',
  description: "A city's weather",
  schema: z.object({ city: z.string() }),
});

describe('LangChain interop, as a LangChain user drives it', () => {
  it("keeps a ChatAnthropic turn's thinking (with its signature) and its tool call once, through a real tool()", async () => {
    const call = { id: 'toolu_01', name: 'weather', args: { city: 'Lyon' }, type: 'tool_call' as const };
    const turn = new AIMessage({
      content: [
        { type: 'thinking', thinking: 'The user wants the weather.', signature: 'sig-abc' },
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_use', id: 'toolu_01', name: 'weather', input: { city: 'Lyon' } },
      ],
      tool_calls: [call],
    });
    const answer = (await weather.invoke(turn.tool_calls?.[0] ?? call)) as ToolMessage;
    const events = asEvents([new HumanMessage('Weather in Lyon?'), turn, answer]);
    expect(events.map((event) => event.kind)).toEqual(['MessageEvent', 'ActionEvent', 'ObservationEvent']);
    expect(events[1]).toMatchObject({
      thinking_blocks: [{ type: 'thinking', thinking: 'The user wants the weather.', signature: 'sig-abc' }],
      thought: [{ text: 'Let me look.' }],
      tool_call: { id: 'toolu_01', name: 'weather', arguments: '{"city":"Lyon"}' },
    });
    expect(events[2]).toMatchObject({
      tool_call_id: 'toolu_01',
      observation: { content: [{ text: 'Sunny in Lyon' }] },
    });

    // Back to LangChain: the thinking block leads the AIMessage's content, as ChatAnthropic sends it back.
    const again = await eventsToLangChainMessages(events);
    expect(again[1]?.content).toEqual([
      { type: 'thinking', thinking: 'The user wants the weather.', signature: 'sig-abc' },
      { type: 'text', text: 'Let me look.' },
    ]);
    expect(again[1]?.tool_calls).toEqual([call]);
    const twice = await eventsToLangChainMessages(fromLangChainMessages(again));
    expect(mapChatMessagesToStoredMessages(twice as BaseMessage[])).toEqual(
      mapChatMessagesToStoredMessages(again as BaseMessage[]),
    );
  });

  it('imports the ToolMessage of a tool that threw (status error, as ToolNode writes it) as an error observation', async () => {
    const failing = tool(
      async (): Promise<string> => {
        throw new Error('weather service down');
      },
      { name: 'weather', description: "A city's weather", schema: z.object({ city: z.string() }) },
    );
    const call = { id: 'call_err', name: 'weather', args: { city: 'Lyon' }, type: 'tool_call' as const };
    const error = await failing.invoke(call).then(
      () => undefined,
      (thrown: unknown) => thrown as Error,
    );
    const answer = new ToolMessage({
      content: `Error: ${error?.message}`,
      tool_call_id: call.id,
      name: call.name,
      status: 'error',
    });
    const events = asEvents([new HumanMessage('Weather?'), new AIMessage({ content: '', tool_calls: [call] }), answer]);
    expect(events[2]).toMatchObject({
      kind: 'ObservationEvent',
      observation: { is_error: true, content: [{ text: 'Error: weather service down' }] },
    });
    const fine = asEvents([
      new HumanMessage('Weather?'),
      new AIMessage({ content: '', tool_calls: [call] }),
      await weather.invoke(call),
    ]);
    expect(fine[2]).toMatchObject({ observation: { is_error: false } });
  });

  it("exports a failed tool's result and imports it again unchanged, round after round", async () => {
    const call = { id: 'call_err', name: 'weather', args: { city: 'Lyon' }, type: 'tool_call' as const };
    const failed = new ToolMessage({ content: 'boom', tool_call_id: call.id, name: call.name, status: 'error' });
    const history: BaseMessage[] = [
      new HumanMessage('Weather?'),
      new AIMessage({ content: '', tool_calls: [call] }),
      failed,
    ];
    const once = await eventsToLangChainMessages(asEvents(history));
    // As the model is sent it: the reference's error header first, then the tool's own text.
    expect(once[2]?.content).toEqual([
      { type: 'text', text: OBSERVATION_ERROR_HEADER },
      { type: 'text', text: 'boom' },
    ]);
    let again = once;
    for (let round = 0; round < 3; round++) {
      const events = fromLangChainMessages(again);
      expect(events[2]).toMatchObject({ observation: { is_error: true, content: [{ text: 'boom' }] } });
      again = await eventsToLangChainMessages(events);
      expect(mapChatMessagesToStoredMessages(again as BaseMessage[])).toEqual(
        mapChatMessagesToStoredMessages(once as BaseMessage[]),
      );
    }
    // The header as the start of one string (a ToolMessage flattened to text) is the header too.
    const flat = new ToolMessage({
      content: `${OBSERVATION_ERROR_HEADER}boom`,
      tool_call_id: call.id,
      status: 'error',
    });
    expect(asEvents([...history.slice(0, 2), flat])[2]).toMatchObject({ observation: { content: [{ text: 'boom' }] } });
    // A tool that succeeded keeps whatever its text says.
    const fine = new ToolMessage({ content: `${OBSERVATION_ERROR_HEADER}boom`, tool_call_id: call.id });
    expect(asEvents([...history.slice(0, 2), fine])[2]).toMatchObject({
      observation: { is_error: false, content: [{ text: `${OBSERVATION_ERROR_HEADER}boom` }] },
    });
  });

  it('reads LangChain v1 standard blocks: reasoning, tool_call blocks, and a call only the content names', () => {
    const v1 = new AIMessage({
      contentBlocks: [
        { type: 'reasoning', reasoning: 'Two cities, two calls.' },
        { type: 'text', text: 'Checking both.' },
        { type: 'tool_call', id: 'call_a', name: 'weather', args: { city: 'Lyon' } },
      ],
    });
    const handWritten = new AIMessage({
      content: [{ type: 'tool_use', id: 'call_b', name: 'weather', input: { city: 'Oslo' } }],
    });
    const events = asEvents([new HumanMessage('Lyon and Oslo?'), v1, handWritten]);
    expect(events.slice(1)).toMatchObject([
      { kind: 'ActionEvent', reasoning_content: 'Two cities, two calls.', thought: [{ text: 'Checking both.' }] },
      { kind: 'ActionEvent', tool_call: { id: 'call_b', name: 'weather', arguments: '{"city":"Oslo"}' } },
    ]);
    expect(events.filter((event) => event.kind === 'ActionEvent')).toHaveLength(2);
  });

  it('reads base64 images of every block shape as data URLs, and writes them back as image_url blocks', async () => {
    const url = 'data:image/png;base64,iVBORw0KGgo=';
    const messages = [
      new HumanMessage({ contentBlocks: [{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] }),
      new HumanMessage({
        content: [{ type: 'image', source_type: 'base64', data: 'iVBORw0KGgo=', mime_type: 'image/png' }],
      }),
      new HumanMessage({
        content: [
          { type: 'text', text: 'and this one' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        ],
      }),
    ];
    const events = asEvents(messages);
    for (const event of events) {
      expect(event).toMatchObject({
        llm_message: { content: expect.arrayContaining([{ cache_prompt: false, type: 'image', image_urls: [url] }]) },
      });
    }
    // The model is sent consecutive user messages as one (as the reference sends them).
    const back = await eventsToLangChainMessages(events);
    const image = { type: 'image_url', image_url: { url } };
    expect(back.map((message) => message.content)).toEqual([
      [image, image, { type: 'text', text: 'and this one' }, image],
    ]);
  });

  it("imports a model's streamed answer: chunks concatenated, with the messages its callbacks saw", async () => {
    const model = new FakeStreamingChatModel({
      chunks: [
        new AIMessageChunk({ content: [{ type: 'reasoning', reasoning: 'Short answer.', index: 0 }] }),
        new AIMessageChunk({ content: [{ type: 'text', text: 'It is ', index: 1 }] }),
        new AIMessageChunk({ content: [{ type: 'text', text: 'sunny.', index: 1 }] }),
      ],
    });
    const sent: BaseMessage[][] = [];
    const tokens: string[] = [];
    let streamed: AIMessageChunk | undefined;
    const stream = await model.stream([new HumanMessage('Weather?')], {
      callbacks: [
        {
          handleChatModelStart: (_llm, messages) => void sent.push(...messages),
          handleLLMNewToken: (token) => void tokens.push(token),
        },
      ],
    });
    for await (const chunk of stream) streamed = streamed === undefined ? chunk : streamed.concat(chunk);
    expect(tokens.length).toBeGreaterThan(0);
    const events = asEvents([...(sent[0] ?? []), streamed as AIMessageChunk]);
    expect(events).toMatchObject([
      { kind: 'MessageEvent', source: 'user' },
      {
        kind: 'MessageEvent',
        source: 'agent',
        llm_message: { content: [{ text: 'It is sunny.' }], reasoning_content: 'Short answer.' },
      },
    ]);
  });
});
