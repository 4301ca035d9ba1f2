import { describe, expect, it } from 'vitest';
import type { ContentPart, Message } from '../schemas/content.js';
import { toAnthropicMessages } from './to-anthropic-messages.js';
import { TOOL_TEXT_LIMIT } from './truncate-tool-text.js';

const t = (text: string, cache_prompt = false): ContentPart => ({ cache_prompt, type: 'text', text });
const img = (image_urls: string[], cache_prompt = false): ContentPart => ({ cache_prompt, type: 'image', image_urls });
const msg = (fields: Partial<Message> & Pick<Message, 'role'>): Message => ({
  content: [],
  thinking_blocks: [],
  ...fields,
});
const result = (id: string, content: ContentPart[]) =>
  msg({ role: 'tool', content, tool_call_id: id, name: 'terminal' });
const ephemeral = { type: 'ephemeral' };

describe('toAnthropicMessages turns', () => {
  it('drops a user message with no block left, and never starts an empty turn', () => {
    const out = toAnthropicMessages([
      msg({ role: 'user', content: [t('')] }),
      msg({ role: 'assistant', content: [t('hi')] }),
      msg({ role: 'user', content: [img(['http://i'])] }),
    ]);
    expect(out.messages).toEqual([{ role: 'assistant', content: [{ type: 'text', text: 'hi' }] }]);
  });

  it('merges consecutive user messages into one turn, but not across an assistant turn', () => {
    const out = toAnthropicMessages([
      msg({ role: 'user', content: [t('a')] }),
      msg({ role: 'user', content: [t('b')] }),
      msg({ role: 'assistant', content: [t('c')] }),
      msg({ role: 'user', content: [t('d')] }),
    ]);
    expect(out.messages.map((turn) => [turn.role, turn.content.length])).toEqual([
      ['user', 2],
      ['assistant', 1],
      ['user', 1],
    ]);
  });

  it('opens a user turn for a tool result after an assistant turn, and puts later results after earlier ones', () => {
    const out = toAnthropicMessages([
      msg({ role: 'assistant', content: [t('calls')] }),
      result('c1', [t('one')]),
      result('c2', [t('two')]),
      msg({ role: 'user', content: [t('then')] }),
      result('c3', [t('three')]),
    ]);
    expect(out.messages[1]?.content.map((block) => ('tool_use_id' in block ? block.tool_use_id : block.type))).toEqual([
      'c1',
      'c2',
      'c3',
      'text',
    ]);
  });

  it('keeps only the text of system messages, without images even with vision, and marks cached ones', () => {
    const out = toAnthropicMessages([msg({ role: 'system', content: [img(['http://i']), t('sys', true), t('')] })], {
      visionEnabled: true,
      cacheEnabled: true,
    });
    expect(out).toEqual({ system: [{ type: 'text', text: 'sys', cache_control: ephemeral }], messages: [] });
  });

  it('gives a thinking block without a signature an empty one', () => {
    const out = toAnthropicMessages([
      msg({ role: 'assistant', thinking_blocks: [{ type: 'thinking', thinking: 'p' }] }),
    ]);
    expect(out.messages).toEqual([
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'p', signature: '' }] },
    ]);
  });
});

describe('toAnthropicMessages blocks', () => {
  it('marks cached text only when caching is enabled, and caches the last image of a cached part only', () => {
    const parts = [t('cached', true), t('plain'), img(['http://a', 'http://b'], true)];
    const enabled = toAnthropicMessages([msg({ role: 'user', content: parts })], {
      cacheEnabled: true,
      visionEnabled: true,
    });
    expect(enabled.messages[0]?.content).toEqual([
      { type: 'text', text: 'cached', cache_control: ephemeral },
      { type: 'text', text: 'plain' },
      { type: 'image', source: { type: 'url', url: 'http://a' } },
      { type: 'image', source: { type: 'url', url: 'http://b' }, cache_control: ephemeral },
    ]);
    const disabled = toAnthropicMessages([msg({ role: 'user', content: parts })], { visionEnabled: true });
    expect(JSON.stringify(disabled)).not.toContain('cache_control');
  });

  it('reads a data URL’s media type and its payload, newlines included', () => {
    const out = toAnthropicMessages([msg({ role: 'user', content: [img(['data:image/jpeg;base64,AA\nBB'])] })], {
      visionEnabled: true,
    });
    expect(out.messages[0]?.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AA\nBB' } },
    ]);
  });

  it.each([
    ['null', 'null'],
    ['an array', '[1,2]'],
    ['a number', '42'],
    ['a string', '"ls"'],
  ])('keeps arguments that are %s whole under `arguments`', (_what, text) => {
    const out = toAnthropicMessages([
      msg({ role: 'assistant', tool_calls: [{ id: 'c', name: 'terminal', arguments: text, origin: 'completion' }] }),
    ]);
    expect(out.messages[0]?.content).toEqual([
      { type: 'tool_use', id: 'c', name: 'terminal', input: { arguments: text } },
    ]);
  });
});

describe('toAnthropicMessages tool results', () => {
  it('truncates long text, keeps images with vision, and leaves out empty content', () => {
    const long = 'x'.repeat(TOOL_TEXT_LIMIT + 10);
    const out = toAnthropicMessages([result('c1', [t(long), img(['http://i'])]), result('c2', [t('')])], {
      visionEnabled: true,
    });
    const [first, second] = out.messages[0]?.content ?? [];
    expect(first).toMatchObject({ type: 'tool_result', tool_use_id: 'c1' });
    const content = (first as { content: { type: string; text?: string }[] }).content;
    expect(content.map((block) => block.type)).toEqual(['text', 'image']);
    expect(content[0]?.text).toHaveLength(TOOL_TEXT_LIMIT);
    expect(second).toEqual({ type: 'tool_result', tool_use_id: 'c2' });
  });

  it('marks a result cached when any of its parts asks for it and caching is enabled, never its blocks', () => {
    const content = [t('a'), t('b', true)];
    const cached = toAnthropicMessages([result('c', content)], { cacheEnabled: true });
    expect(cached.messages[0]?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'c',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
        cache_control: ephemeral,
      },
    ]);
    expect(JSON.stringify(toAnthropicMessages([result('c', content)]))).not.toContain('cache_control');
    // Nor an image of a cached part: the marker goes on the tool_result alone.
    const withImage = toAnthropicMessages([result('c', [img(['http://i'], true)])], {
      cacheEnabled: true,
      visionEnabled: true,
    });
    expect(withImage.messages[0]?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'c',
        content: [{ type: 'image', source: { type: 'url', url: 'http://i' } }],
        cache_control: ephemeral,
      },
    ]);
  });

  it('gives a result without a call id an empty tool_use_id', () => {
    const out = toAnthropicMessages([msg({ role: 'tool', content: [t('x')] })]);
    expect(out.messages[0]?.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: '' });
  });
});
