import { describe, expect, it } from 'vitest';
import { ChatImportError } from '../errors/chat-import-error.js';
import type { AnyEvent } from '../schemas/events.js';
import { fromChatCompletionsMessages } from './from-chat-completions-messages.js';
import type { ChatCompletionMessageParam } from './openai-wire-types.js';

const call = (id: string) => ({ id, type: 'function' as const, function: { name: 'terminal', arguments: '{}' } });
const text = (value: string) => ({ cache_prompt: false, type: 'text', text: value });

function only<K extends AnyEvent['kind']>(event: AnyEvent | undefined, kind: K): Extract<AnyEvent, { kind: K }> {
  if (event?.kind !== kind) throw new Error(`expected a ${kind}, got ${event?.kind}`);
  return event as Extract<AnyEvent, { kind: K }>;
}

describe('who wrote a message', () => {
  it('keeps the name of a user or assistant message as its sender, and adds none without one', () => {
    const events = fromChatCompletionsMessages([
      { role: 'user', content: 'hi', name: 'alice' },
      { role: 'assistant', content: 'hello', name: 'helper' },
      { role: 'user', content: 'and you?' },
      { role: 'assistant', content: 'fine' },
    ]);
    expect(events.map((event) => (event.kind === 'MessageEvent' ? event.sender : 'not a message'))).toEqual([
      'alice',
      'helper',
      undefined,
      undefined,
    ]);
    expect(Object.keys(events[2]!)).not.toContain('sender');
    expect(Object.keys(events[3]!)).not.toContain('sender');
  });
});

describe('the reasoning of an assistant turn', () => {
  it('is kept on a reply without tool calls', () => {
    const [reply] = fromChatCompletionsMessages([
      { role: 'assistant', content: 'four', reasoning_content: 'two and two' } as ChatCompletionMessageParam,
    ]);
    expect(only(reply, 'MessageEvent').llm_message).toMatchObject({ content: [text('four')] });
    expect(only(reply, 'MessageEvent').llm_message.reasoning_content).toBe('two and two');
  });

  it('is kept on the first call of a batch only, like its text', () => {
    const [first, second] = fromChatCompletionsMessages([
      {
        role: 'assistant',
        content: 'checking',
        reasoning_content: 'look first',
        tool_calls: [call('c1'), call('c2')],
      } as ChatCompletionMessageParam,
    ]);
    expect(only(first, 'ActionEvent').reasoning_content).toBe('look first');
    expect(only(first, 'ActionEvent').thought).toEqual([text('checking')]);
    expect(only(second, 'ActionEvent').reasoning_content).toBeUndefined();
    expect(only(second, 'ActionEvent').thought).toEqual([]);
  });

  it('is left out when empty or not text', () => {
    for (const reasoning of ['', 42, null]) {
      const [reply, action] = fromChatCompletionsMessages([
        { role: 'assistant', content: 'x', reasoning_content: reasoning } as unknown as ChatCompletionMessageParam,
        { role: 'assistant', content: null, reasoning_content: reasoning, tool_calls: [call('c')] } as never,
      ]);
      expect(Object.keys(only(reply, 'MessageEvent').llm_message)).not.toContain('reasoning_content');
      expect(Object.keys(only(action, 'ActionEvent'))).not.toContain('reasoning_content');
    }
  });
});

describe('assistant content given as parts', () => {
  it('imports text and refusal parts as text, in order', () => {
    const [reply, action] = fromChatCompletionsMessages([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'I can do part of it.' },
          { type: 'refusal', refusal: 'Not the rest.' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'running it' }], tool_calls: [call('c1')] },
    ]);
    expect(only(reply, 'MessageEvent').llm_message.content).toEqual([
      text('I can do part of it.'),
      text('Not the rest.'),
    ]);
    expect(only(action, 'ActionEvent').thought).toEqual([text('running it')]);
  });
});

describe('a system prompt given as parts', () => {
  it('joins its text parts with newlines', () => {
    const [system] = fromChatCompletionsMessages([
      {
        role: 'developer',
        content: [
          { type: 'text', text: 'be brief' },
          { type: 'text', text: 'be kind' },
        ],
      },
    ]);
    expect(only(system, 'SystemPromptEvent').system_prompt.text).toBe('be brief\nbe kind');
  });

  it('refuses a part that is not text, naming the message and the part', () => {
    const image = JSON.parse('{"role":"system","content":[{"type":"text","text":"a"},{"type":"image_url"}]}');
    const attempt = () => fromChatCompletionsMessages([{ role: 'user', content: 'hi' }, image]);
    expect(attempt).toThrow(ChatImportError);
    expect(attempt).toThrow(/message 1 \(content\[1\]\.type\).*"image_url"/);
    const textless = JSON.parse('{"role":"system","content":[{"type":"text"}]}');
    // A text part without its text names the missing field.
    expect(() => fromChatCompletionsMessages([textless])).toThrow(
      /message 0 \(content\[0\]\.text\): expected a string/,
    );
  });

  it('refuses an image part even when it carries a text field, rather than taking that text as the prompt', () => {
    const captioned = JSON.parse(
      '{"role":"system","content":[{"type":"image_url","image_url":{"url":"https://a.test/x.png"},"text":"caption"}]}',
    );
    expect(() => fromChatCompletionsMessages([captioned])).toThrow(/message 0 \(content\[0\]\.type\).*"image_url"/);
  });
});
