// What a user message or a tool result may carry through the AG-UI face (`user-content.ts`, `userMessageText` of
// `run-input.ts`; pure): pre-1.0 `binary` parts are images like 1.0 `image` parts, anything else is refused naming
// the part; a message without content is an empty one; a tool result's text is its text parts joined.
import { describe, expect, it } from 'vitest';
import { userMessageText } from '../../src/faces/ag-ui/run-input.js';
import { userMessageContent } from '../../src/faces/ag-ui/user-content.js';

const refusal = (where: string, reason: string) =>
  expect.objectContaining({ code: 'unsupported_content', message: expect.stringContaining(`${where}: ${reason}`) });

describe('userMessageContent', () => {
  it('takes text as text parts not marked for prompt caching (the agent places its own cache marks), empty text as none', () => {
    const text = (value: string) => ({ cache_prompt: false, type: 'text', text: value });
    expect(userMessageContent('Hi', 'messages[0]')).toEqual([text('Hi')]);
    expect(userMessageContent('', 'messages[0]')).toEqual([]);
    expect(userMessageContent([{ type: 'text', text: 'Look' }], 'messages[0]')).toEqual([text('Look')]);
  });

  it('takes a pre-1.0 binary image part, as inline data or by URL, like an image part', () => {
    expect(
      userMessageContent(
        [
          { type: 'binary', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
          { type: 'binary', mimeType: 'image/jpeg', url: 'https://images.example/cat.jpg' },
          { type: 'binary', mimeType: 'image/gif', data: '', url: 'https://images.example/dog.gif' },
        ],
        'messages[1]',
      ),
    ).toEqual([
      { cache_prompt: false, type: 'image', image_urls: ['data:image/png;base64,iVBORw0KGgo='] },
      { cache_prompt: false, type: 'image', image_urls: ['https://images.example/cat.jpg'] },
      { cache_prompt: false, type: 'image', image_urls: ['https://images.example/dog.gif'] },
    ]);
  });

  it('refuses a binary part that is not an image, or an image with nothing to fetch, naming the part', () => {
    expect(() =>
      userMessageContent([{ type: 'binary', mimeType: 'application/pdf', data: 'aGVsbG8=' }], 'messages[2]'),
    ).toThrow(refusal('messages[2].content[0]', "binary content of type 'application/pdf'"));
    expect(() => userMessageContent([{ type: 'binary', data: 'aGVsbG8=' }], 'messages[2]')).toThrow(
      refusal('messages[2].content[0]', "binary content of type ''"),
    );
    expect(() => userMessageContent([{ type: 'binary', mimeType: 'image/png' }], 'messages[2]')).toThrow(
      refusal('messages[2].content[0]', 'an image part without a source value'),
    );
    expect(() => userMessageContent([{ type: 'image', source: { type: 'url', value: 42 } }], 'messages[2]')).toThrow(
      refusal('messages[2].content[0]', 'an image part without a source value'),
    );
  });

  it('refuses a part that is not an object, and takes a message without content as empty', () => {
    expect(() => userMessageContent(['just text'], 'messages[0]')).toThrow(
      refusal('messages[0].content[0]', 'a part that is not an object'),
    );
    expect(() => userMessageContent([['nested']], 'messages[0]')).toThrow(
      refusal('messages[0].content[0]', 'a part that is not an object'),
    );
    expect(userMessageContent(undefined, 'messages[0]')).toEqual([]);
    expect(userMessageContent(null, 'messages[0]')).toEqual([]);
    expect(userMessageContent([{ type: 'text', text: '' }, { type: 'text' }], 'messages[0]')).toEqual([]);
  });
});

describe('userMessageText', () => {
  it('is a string content as it is, or the text parts of a content array joined, other parts left out', () => {
    expect(userMessageText('red')).toBe('red');
    expect(
      userMessageText([
        { type: 'text', text: 'dark ' },
        { type: 'image', source: { type: 'url', value: 'https://images.example/a.png' } },
        null,
        'loose',
        { type: 'text' },
        { type: 'text', text: 'red' },
      ]),
    ).toBe('dark red');
    expect(userMessageText(undefined)).toBe('');
    expect(userMessageText({ type: 'text', text: 'not in an array' })).toBe('');
  });
});
