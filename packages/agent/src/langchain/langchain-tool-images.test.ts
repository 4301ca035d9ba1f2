// A LangChain tool that answers with images (a screenshot, a chart): its ToolMessage's image blocks become the
// observation's ImageContent and come back as image_url blocks, through real `@langchain/core` messages and tools.
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  mapChatMessagesToStoredMessages,
  ToolMessage,
} from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { type AnyEvent, ChatImportError, eventsToMessages } from '@x/events';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  eventsToLangChainMessages,
  fromLangChainMessages,
  fromLangChainStoredMessages,
  type LangChainMessage,
  toLangChainStoredMessages,
} from './index.js';

const asEvents = (messages: BaseMessage[]): AnyEvent[] => fromLangChainMessages(messages as LangChainMessage[]);

const png = 'iVBORw0KGgo=';
const dataUrl = `data:image/png;base64,${png}`;
const httpsUrl = 'https://example.com/chart.png';
const image = (url: string) => ({ cache_prompt: false, type: 'image', image_urls: [url] });
const imageBlock = (url: string) => ({ type: 'image_url', image_url: { url } });

const call = { id: 'call_plot', name: 'plot', args: { series: 'sales' }, type: 'tool_call' as const };
const turn = () => new AIMessage({ content: 'Plotting.', tool_calls: [call] });

/** A real tool whose output is content blocks: a text and two images (inline and by URL). */
const plot = tool(
  async () => [
    { type: 'text', text: 'The chart of sales.' },
    { type: 'image_url', image_url: { url: dataUrl } },
    { type: 'image_url', image_url: { url: httpsUrl } },
  ],
  { name: 'plot', description: 'Plots a series', schema: z.object({ series: z.string() }) },
);

/** The observation of a conversation's events (the one event of that kind). */
function observationOf(events: readonly AnyEvent[]) {
  const observation = events.find((event) => event.kind === 'ObservationEvent');
  if (observation?.kind !== 'ObservationEvent') throw new Error('expected an observation');
  return observation;
}

describe('a ToolMessage with images', () => {
  it("from a real tool(): the observation keeps the tool's text and images, and they come back as image_url blocks", async () => {
    const answer = (await plot.invoke(call)) as ToolMessage;
    expect(answer).toBeInstanceOf(ToolMessage);
    const events = asEvents([new HumanMessage('Plot sales'), turn(), answer]);
    expect(events.map((event) => event.kind)).toEqual(['MessageEvent', 'ActionEvent', 'ObservationEvent']);
    expect(observationOf(events)).toMatchObject({
      tool_call_id: 'call_plot',
      tool_name: 'plot',
      observation: {
        content: [{ type: 'text', text: 'The chart of sales.' }, image(dataUrl), image(httpsUrl)],
        is_error: false,
      },
    });

    const back = await eventsToLangChainMessages(events);
    const toolMessage = back[2];
    expect(toolMessage).toBeInstanceOf(ToolMessage);
    expect(toolMessage).toMatchObject({ tool_call_id: 'call_plot', name: 'plot' });
    expect(toolMessage?.content).toEqual([
      { type: 'text', text: 'The chart of sales.' },
      imageBlock(dataUrl),
      imageBlock(httpsUrl),
    ]);
    // A second round trip changes nothing: the images are kept, not just passed through once.
    const twice = await eventsToLangChainMessages(fromLangChainMessages(back));
    expect(mapChatMessagesToStoredMessages(twice as BaseMessage[])).toEqual(
      mapChatMessagesToStoredMessages(back as BaseMessage[]),
    );
  });

  it('reads every LangChain image block shape in a tool result, base64 data as a data: URL', () => {
    const answer = new ToolMessage({
      tool_call_id: 'call_plot',
      content: [
        { type: 'image', url: httpsUrl },
        { type: 'image', data: png, mimeType: 'image/png' },
        { type: 'image', source_type: 'base64', data: png, mime_type: 'image/png' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
        { type: 'image', source: { type: 'url', url: httpsUrl } },
        { type: 'image_url', image_url: httpsUrl },
      ],
    });
    expect(observationOf(asEvents([turn(), answer])).observation.content).toEqual([
      image(httpsUrl),
      image(dataUrl),
      image(dataUrl),
      image(dataUrl),
      image(httpsUrl),
      image(httpsUrl),
    ]);
  });

  it('keeps the images through LangChain’s stored form (plain JSON)', async () => {
    const answer = new ToolMessage({
      tool_call_id: 'call_plot',
      content: [{ type: 'text', text: 'Screenshot:' }, imageBlock(dataUrl)],
    });
    const events = asEvents([turn(), answer]);
    const stored = await toLangChainStoredMessages(eventsToMessages(events));
    const reloaded = await fromLangChainStoredMessages(JSON.parse(JSON.stringify(stored)));
    expect(observationOf(reloaded).observation.content).toEqual([
      { cache_prompt: false, type: 'text', text: 'Screenshot:' },
      image(dataUrl),
    ]);
  });

  it('of a tool that failed is an error observation that keeps its images', () => {
    const answer = new ToolMessage({
      tool_call_id: 'call_plot',
      status: 'error',
      content: [{ type: 'text', text: 'Rendering failed; partial image:' }, imageBlock(httpsUrl)],
    });
    expect(observationOf(asEvents([turn(), answer])).observation).toMatchObject({
      is_error: true,
      content: [{ text: 'Rendering failed; partial image:' }, image(httpsUrl)],
    });
  });

  it('is still refused when a block is neither text nor an image, naming the message and block', () => {
    const answer = new ToolMessage({
      tool_call_id: 'call_plot',
      content: [imageBlock(httpsUrl), { type: 'file', mimeType: 'application/pdf', data: 'JVBERi0=' }],
    });
    expect(() => asEvents([turn(), answer])).toThrow(ChatImportError);
    expect(() => asEvents([turn(), answer])).toThrow(/message 1 \(content\[1\]\.type\).*"file"/);
  });
});
