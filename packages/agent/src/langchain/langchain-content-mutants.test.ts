// The content blocks of real `@langchain/core` messages the import reads and those it refuses: blocks of an AIMessage
// events have no place for, and image blocks that carry no image (empty or missing data, a type that is not an
// image's, a file or audio block that has a URL).
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { type AnyEvent, ChatImportError } from '@x/events';
import { describe, expect, it } from 'vitest';
import { fromLangChainMessages, type LangChainMessage } from './index.js';

const asEvents = (messages: BaseMessage[]): AnyEvent[] => fromLangChainMessages(messages as LangChainMessage[]);
const png = 'iVBORw0KGgo=';

describe('the content blocks of an AIMessage', () => {
  it('refuses a block events have no place for (an image the model made), naming the message and block', () => {
    const drawn = new AIMessage({
      content: [
        { type: 'text', text: 'Here it is.' },
        { type: 'image', data: png, mimeType: 'image/png' },
      ],
    });
    const refused = () => asEvents([new HumanMessage('Draw a cat'), drawn]);
    expect(refused).toThrow(ChatImportError);
    expect(refused).toThrow(/message 1 \(content\[1\]\.type\).*"image"/);
  });

  it("refuses a provider's server-side tool use (Anthropic web search) rather than taking it for a call to answer", () => {
    const searched = new AIMessage({
      content: [
        { type: 'text', text: 'Searching.' },
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'Lyon weather' } },
      ],
    });
    expect(() => asEvents([searched])).toThrow(/message 0 \(content\[1\]\.type\).*"server_tool_use"/);
  });

  it('joins several text and reasoning blocks with newlines, in order', () => {
    const turn = new AIMessage({
      content: [
        { type: 'reasoning', reasoning: 'Rain is likely.' },
        { type: 'text', text: 'Take an umbrella.' },
        { type: 'reasoning', reasoning: 'Wind too.' },
        { type: 'text', text: 'And a coat.' },
      ],
    });
    expect(asEvents([turn])).toMatchObject([
      {
        kind: 'MessageEvent',
        llm_message: {
          content: [{ text: 'Take an umbrella.\nAnd a coat.' }],
          reasoning_content: 'Rain is likely.\nWind too.',
        },
      },
    ]);
  });

  it('keeps a redacted thinking block whole, and refuses a thinking block without its text', () => {
    const redacted = new AIMessage({
      content: [
        { type: 'redacted_thinking', data: 'opaque-bytes' },
        { type: 'text', text: 'Answer.' },
      ],
    });
    expect(asEvents([redacted])).toMatchObject([
      { llm_message: { thinking_blocks: [{ type: 'redacted_thinking', data: 'opaque-bytes' }] } },
    ]);
    const broken = new AIMessage({ content: [{ type: 'thinking', signature: 'sig' }] });
    expect(() => asEvents([broken])).toThrow(/message 0 \(content\[0\]\.type\).*"thinking"/);
  });
});

describe('image blocks that carry no image', () => {
  const user = (block: Record<string, unknown>) =>
    new HumanMessage({ content: [{ type: 'text', text: 'Look:' }, block as { type: 'image' }] });

  it.each([
    ['empty base64 data', { type: 'image', data: '', mimeType: 'image/png' }],
    ['no data at all', { type: 'image', mimeType: 'image/png' }],
    ['data of a type that is not an image', { type: 'image', data: png, mimeType: 'application/pdf' }],
    ['data without a type', { type: 'image', data: png }],
    [
      'a base64 source of no image type',
      { type: 'image', source: { type: 'base64', media_type: 'text/plain', data: png } },
    ],
    ['an image_url block without a URL', { type: 'image_url', image_url: {} }],
    ['a file block with a URL', { type: 'file', url: 'https://example.com/report.pdf' }],
    ['an audio block with a URL', { type: 'audio', url: 'https://example.com/note.wav' }],
  ])('refuses %s, naming the block', (_what, block) => {
    expect(() => asEvents([user(block)])).toThrow(ChatImportError);
    expect(() => asEvents([user(block)])).toThrow(/message 0 \(content\[1\]\.type\)/);
  });

  it('reads a v0.3 base64 block by its mime_type, in a tool result too', () => {
    const answer = new ToolMessage({
      tool_call_id: 'call_1',
      content: [{ type: 'image', source_type: 'base64', data: png, mime_type: 'image/jpeg' }],
    });
    const turn = new AIMessage({ content: '', tool_calls: [{ id: 'call_1', name: 'shot', args: {} }] });
    expect(asEvents([turn, answer])[1]).toMatchObject({
      observation: { content: [{ type: 'image', image_urls: [`data:image/jpeg;base64,${png}`] }] },
    });
  });
});
