import { describe, expect, it } from 'vitest';
import type { Message } from '../schemas/content.js';
import { toAnthropicMessages } from './to-anthropic-messages.js';

const t = (text: string, cache_prompt = false) => ({ cache_prompt, type: 'text' as const, text });
const msg = (fields: Partial<Message> & Pick<Message, 'role'>): Message => ({
  content: [],
  thinking_blocks: [],
  ...fields,
});
const call = (id: string, args = '{"command": "ls"}') => ({
  id,
  name: 'terminal',
  arguments: args,
  origin: 'completion' as const,
});

describe('toAnthropicMessages', () => {
  it('renders system, thinking-first assistant turns, tool_use and merged tool_result turns', () => {
    const messages: Message[] = [
      msg({ role: 'system', content: [t('sys', true), t('ctx')] }),
      msg({
        role: 'user',
        content: [
          t('go'),
          { cache_prompt: false, type: 'image', image_urls: ['data:image/png;base64,AAAA', 'https://x/y.png'] },
        ],
      }),
      msg({
        role: 'assistant',
        content: [t('two calls'), t('')],
        thinking_blocks: [
          { type: 'thinking', thinking: 'plan', signature: 'sig' },
          { type: 'redacted_thinking', data: 'opaque' },
        ],
        tool_calls: [call('c1'), call('c2', 'not json')],
      }),
      msg({ role: 'tool', content: [t('one', true)], tool_call_id: 'c1', name: 'terminal' }),
      msg({ role: 'user', content: [t('meanwhile')] }),
      msg({ role: 'tool', content: [t('two')], tool_call_id: 'c2', name: 'terminal' }),
      msg({ role: 'assistant', content: [t('')] }),
    ];
    const out = toAnthropicMessages(messages, { cacheEnabled: true, visionEnabled: true });
    expect(out.system).toEqual([
      { type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'ctx' },
    ]);
    expect(out.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'go' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
          { type: 'image', source: { type: 'url', url: 'https://x/y.png' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'plan', signature: 'sig' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'text', text: 'two calls' },
          { type: 'tool_use', id: 'c1', name: 'terminal', input: { command: 'ls' } },
          { type: 'tool_use', id: 'c2', name: 'terminal', input: { arguments: 'not json' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'c1',
            content: [{ type: 'text', text: 'one' }],
            cache_control: { type: 'ephemeral' },
          },
          { type: 'tool_result', tool_use_id: 'c2', content: [{ type: 'text', text: 'two' }] },
          { type: 'text', text: 'meanwhile' },
        ],
      },
    ]);
  });

  it('drops images and cache markers by default', () => {
    const out = toAnthropicMessages([
      msg({ role: 'user', content: [t('a', true), { cache_prompt: false, type: 'image', image_urls: ['http://i'] }] }),
    ]);
    expect(out).toEqual({ system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }] }] });
  });
});
