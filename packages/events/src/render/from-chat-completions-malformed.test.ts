// fromChatCompletionsMessages also takes JSON from outside (a request body, a saved history, another framework's
// export): whatever does not fit the wire type is refused with a ChatImportError naming the message and the field,
// never a TypeError from inside the import.
import { describe, expect, it } from 'vitest';
import { ChatImportError } from '../errors/chat-import-error.js';
import { fromChatCompletionsMessages } from './from-chat-completions-messages.js';

const importJson = (messages: unknown) =>
  fromChatCompletionsMessages(messages as Parameters<typeof fromChatCompletionsMessages>[0]);

const call = { id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{}' } };

const cases: [string, unknown[], number, string][] = [
  ['a message that is not an object', [{ role: 'user', content: 'hi' }, 'hello'], 1, '(message)'],
  ['a message that is null', [null], 0, '(message)'],
  ['a missing role', [{ content: 'hi' }], 0, 'role'],
  ['a numeric user content', [{ role: 'user', content: 42 }], 0, 'content'],
  ['a missing user content', [{ role: 'user' }], 0, 'content'],
  ['a system content of an object', [{ role: 'system', content: { text: 'x' } }], 0, 'content'],
  ['a content part that is a string', [{ role: 'user', content: ['hi'] }], 0, 'content[0]'],
  ['a content part without a type', [{ role: 'user', content: [{ text: 'hi' }] }], 0, 'content[0].type'],
  [
    'a text part whose text is a number',
    [{ role: 'user', content: [{ type: 'text', text: 1 }] }],
    0,
    'content[0].text',
  ],
  [
    'an image part without image_url',
    [{ role: 'user', content: [{ type: 'image_url' }] }],
    0,
    'content[0].image_url.url',
  ],
  ['a name that is a number', [{ role: 'user', content: 'hi', name: 7 }], 0, 'name'],
  ['tool_calls of false', [{ role: 'assistant', content: 'x', tool_calls: false }], 0, 'tool_calls'],
  [
    'a tool call without an id',
    [{ role: 'assistant', tool_calls: [{ ...call, id: undefined }] }],
    0,
    'tool_calls[0].id',
  ],
  [
    'a tool call without function',
    [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function' }] }],
    0,
    'tool_calls[0].function',
  ],
  [
    'tool call arguments as an object',
    [{ role: 'assistant', tool_calls: [{ ...call, function: { name: 'ls', arguments: {} } }] }],
    0,
    'tool_calls[0].function.arguments',
  ],
  ['an assistant refusal of a number', [{ role: 'assistant', content: null, refusal: 3 }], 0, 'refusal'],
  [
    'a tool result without tool_call_id',
    [
      { role: 'assistant', tool_calls: [call] },
      { role: 'tool', content: 'ok' },
    ],
    1,
    'tool_call_id',
  ],
  [
    'a tool result content of null',
    [
      { role: 'assistant', tool_calls: [call] },
      { role: 'tool', tool_call_id: 'call_1', content: null },
    ],
    1,
    'content',
  ],
];

describe('fromChatCompletionsMessages on JSON that does not fit the wire type', () => {
  it.each(cases)('refuses %s, naming the message and the field', (_, messages, index, path) => {
    const caught = (() => {
      try {
        importJson(messages);
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    expect(caught).toBeInstanceOf(ChatImportError);
    expect(caught).toMatchObject({ index, path });
    expect((caught as Error).message).toContain(`Cannot import chat message ${index} (${path})`);
  });

  it('refuses a history that is not an array', () => {
    const attempt = () => importJson({ role: 'user', content: 'hi' });
    expect(attempt).toThrow(ChatImportError);
    expect(attempt).toThrow('Cannot import chat message 0 ((messages)): expected an array of messages');
  });

  it('still refuses unsupported roles and part types by name', () => {
    expect(() => importJson([{ role: 'function', name: 'f', content: 'x' }])).toThrow(
      'role "function" is not supported',
    );
    expect(() => importJson([{ role: 'user', content: [{ type: 'input_audio', input_audio: {} }] }])).toThrow(
      'content part type "input_audio" cannot be represented',
    );
  });

  it('imports a name of null as no sender, and a refusal-only assistant turn as its refusal', () => {
    const events = importJson([
      { role: 'user', content: 'hi', name: null },
      { role: 'assistant', content: null, refusal: 'I cannot help with that.' },
    ]);
    expect(events.map((event) => (event as { sender?: string }).sender)).toEqual([undefined, undefined]);
    expect(events[1]).toMatchObject({
      kind: 'MessageEvent',
      llm_message: { role: 'assistant', content: [{ type: 'text', text: 'I cannot help with that.' }] },
    });
  });
});
