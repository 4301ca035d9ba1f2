import { describe, expect, it } from 'vitest';
import { maybeTruncate } from '../registry/reference-kinds/maybe-truncate.js';
import type { Message } from '../schemas/content.js';
import { toChatCompletionsMessages } from './to-chat-completions-messages.js';
import { TOOL_TEXT_LIMIT, TRUNCATE_NOTICE, truncateToolText } from './truncate-tool-text.js';

const t = (text: string, cache_prompt = false) => ({ cache_prompt, type: 'text' as const, text });
const img = (urls: string[], cache_prompt = false) => ({ cache_prompt, type: 'image' as const, image_urls: urls });
const call = { id: 'c1', name: 'terminal', arguments: '{"command": "ls"}', origin: 'completion' as const };
const msg = (fields: Partial<Message> & Pick<Message, 'role'>): Message => ({
  content: [],
  thinking_blocks: [],
  ...fields,
});

describe('toChatCompletionsMessages', () => {
  it('uses list form by default (function calling on) and drops images unless vision is on', () => {
    const user = msg({ role: 'user', content: [t('look'), img(['http://a', 'http://b'], true)] });
    expect(toChatCompletionsMessages([user])).toEqual([{ role: 'user', content: [{ type: 'text', text: 'look' }] }]);
    expect(toChatCompletionsMessages([user], { visionEnabled: true, cacheEnabled: true })).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'http://a' } },
          { type: 'image_url', image_url: { url: 'http://b' }, cache_control: { type: 'ephemeral' } },
        ],
      },
    ]);
  });

  it('uses string form when forced or when cache, vision and function calling are all off', () => {
    const user = msg({ role: 'user', content: [t('a'), img(['http://x']), t('b')] });
    expect(toChatCompletionsMessages([user], { forceStringSerializer: true, visionEnabled: true })).toEqual([
      { role: 'user', content: 'a\nb' },
    ]);
    expect(toChatCompletionsMessages([user], { functionCallingEnabled: false })).toEqual([
      { role: 'user', content: 'a\nb' },
    ]);
  });

  it('puts cache_control on marked parts in the list form whatever cacheEnabled says, at message level for tool results', () => {
    const system = msg({ role: 'system', content: [t('sys', true), t('ctx')] });
    const tool = msg({ role: 'tool', content: [t('out', true)], tool_call_id: 'c1', name: 'terminal' });
    const marked = [
      {
        role: 'system',
        content: [
          { type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } },
          { type: 'text', text: 'ctx' },
        ],
      },
      {
        role: 'tool',
        content: [{ type: 'text', text: 'out' }],
        tool_call_id: 'c1',
        name: 'terminal',
        cache_control: { type: 'ephemeral' },
      },
    ];
    // The reference's to_llm_dict marks a part by its own cache_prompt; cache_enabled only picks the list form.
    expect(toChatCompletionsMessages([system, tool])).toEqual(marked);
    expect(toChatCompletionsMessages([system, tool], { cacheEnabled: true })).toEqual(marked);
    expect(toChatCompletionsMessages([system, tool], { cacheEnabled: true, forceStringSerializer: true })).toEqual([
      { role: 'system', content: 'sys\nctx' },
      { role: 'tool', content: 'out', tool_call_id: 'c1', name: 'terminal' },
    ]);
    // Caching alone selects the list form.
    expect(toChatCompletionsMessages([system], { cacheEnabled: true, functionCallingEnabled: false })).toEqual([
      marked[0],
    ]);
  });

  it('renders tool-call turns: tool_calls added, blank text dropped, content removed when empty', () => {
    const blank = msg({ role: 'assistant', content: [t('  '), t('')], tool_calls: [call] });
    const chatCall = { id: 'c1', type: 'function', function: { name: 'terminal', arguments: '{"command": "ls"}' } };
    expect(toChatCompletionsMessages([blank])).toEqual([{ role: 'assistant', tool_calls: [chatCall] }]);
    expect(toChatCompletionsMessages([blank], { forceStringSerializer: true })).toEqual([
      { role: 'assistant', tool_calls: [chatCall] },
    ]);
    const withText = msg({ role: 'assistant', content: [t(' '), t('ok')], tool_calls: [call] });
    expect(toChatCompletionsMessages([withText])[0]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'ok' }],
      tool_calls: [chatCall],
    });
  });

  it('turns an empty plain assistant content into "" and sends thinking blocks and reasoning on request', () => {
    const thinking = [{ type: 'thinking' as const, thinking: 'hm', signature: 's' }];
    const reply = msg({ role: 'assistant', thinking_blocks: thinking, reasoning_content: 'why' });
    expect(toChatCompletionsMessages([reply])).toEqual([{ role: 'assistant', content: '', thinking_blocks: thinking }]);
    expect(toChatCompletionsMessages([reply], { forceStringSerializer: true, sendReasoningContent: true })).toEqual([
      { role: 'assistant', content: '', reasoning_content: 'why' },
    ]);
  });

  it('middle-truncates tool text past 50,000 characters in both forms', () => {
    const long = `${'h'.repeat(30_000)}${'t'.repeat(30_001)}`;
    const tool = msg({ role: 'tool', content: [t(long)], tool_call_id: 'c1', name: 'terminal' });
    const [list] = toChatCompletionsMessages([tool]);
    const [string] = toChatCompletionsMessages([tool], { forceStringSerializer: true });
    const expected = truncateToolText(long);
    expect(list?.content).toEqual([{ type: 'text', text: expected }]);
    expect(string?.content).toBe(expected);
    const user = msg({ role: 'user', content: [t(long)] });
    expect(toChatCompletionsMessages([user], { forceStringSerializer: true })[0]?.content).toBe(long);
  });
});

describe('truncateToolText', () => {
  it('keeps head and tail around the notice, the head taking the odd character', () => {
    const text = 'a'.repeat(60_000) + 'z'.repeat(10);
    const out = truncateToolText(text);
    expect(out).toHaveLength(TOOL_TEXT_LIMIT);
    const available = TOOL_TEXT_LIMIT - TRUNCATE_NOTICE.length;
    const head = Math.ceil(available / 2);
    expect(out.slice(head, head + TRUNCATE_NOTICE.length)).toBe(TRUNCATE_NOTICE);
    expect(out.endsWith('z'.repeat(10))).toBe(true);
    expect(truncateToolText(`abc${'x'.repeat(200)}ij`, TRUNCATE_NOTICE.length + 5)).toBe(`abc${TRUNCATE_NOTICE}ij`);
    expect(truncateToolText('short')).toBe('short');
  });

  it('counts characters as Python does (code points): an emoji is one, and none is split', () => {
    // The reference's maybe_truncate(text, truncate_after=200) gave exactly this.
    const text = '😀'.repeat(150) + 'é'.repeat(10) + '𝄞'.repeat(150);
    expect(truncateToolText(text, 200)).toBe('😀'.repeat(44) + TRUNCATE_NOTICE + '𝄞'.repeat(43));
    expect(maybeTruncate(text, 200)).toBe('😀'.repeat(44) + TRUNCATE_NOTICE + '𝄞'.repeat(43));
    expect(truncateToolText('😀'.repeat(200), 200)).toBe('😀'.repeat(200));
    expect(maybeTruncate('😀'.repeat(200), 200)).toBe('😀'.repeat(200));
  });
});
