import { describe, expect, it } from 'vitest';
import type { Message } from '../schemas/content.js';
import { toResponsesInput } from './to-responses-input.js';
import { truncateToolText } from './truncate-tool-text.js';

const t = (text: string) => ({ cache_prompt: false, type: 'text' as const, text });
const msg = (fields: Partial<Message> & Pick<Message, 'role'>): Message => ({
  content: [],
  thinking_blocks: [],
  ...fields,
});

describe('toResponsesInput', () => {
  it('maps every role as the reference does', () => {
    const long = 'x'.repeat(60_000);
    const messages: Message[] = [
      msg({ role: 'system', content: [t('sys'), t(''), t('ctx')] }),
      msg({ role: 'user', content: [t('hi'), { cache_prompt: false, type: 'image', image_urls: ['http://i'] }] }),
      msg({ role: 'user' }),
      msg({
        role: 'assistant',
        content: [t('thinking aloud'), t('')],
        responses_reasoning_item: {
          id: 'rs_1',
          summary: ['s1'],
          content: ['c1'],
          encrypted_content: 'SECRET',
          status: 'completed',
        },
        tool_calls: [
          { id: 'call_1', name: 'terminal', arguments: '{}', origin: 'completion' },
          { id: 'fc_2', name: 'terminal', arguments: '{}', origin: 'responses' },
          { id: 'call_3', responses_item_id: 'fc_orig', name: 'terminal', arguments: '{}', origin: 'responses' },
        ],
      }),
      msg({ role: 'assistant', responses_reasoning_item: { summary: ['no id'] } }),
      msg({
        role: 'tool',
        tool_call_id: 'call_1',
        name: 'terminal',
        content: [t(long), { cache_prompt: false, type: 'image', image_urls: ['http://o'] }],
      }),
    ];
    const { instructions, input } = toResponsesInput(messages, { visionEnabled: true });
    expect(instructions).toBe('sys\nctx');
    expect(input).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'hi' },
          { type: 'input_image', image_url: 'http://i', detail: 'auto' },
        ],
      },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '' }] },
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 's1' }],
        content: [{ type: 'reasoning_text', text: 'c1' }],
        encrypted_content: 'SECRET',
        status: 'completed',
      },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'thinking aloud' }] },
      { type: 'function_call', id: 'fc_call_1', call_id: 'call_1', name: 'terminal', arguments: '{}' },
      { type: 'function_call', id: 'fc_2', call_id: 'fc_2', name: 'terminal', arguments: '{}' },
      { type: 'function_call', id: 'fc_orig', call_id: 'call_3', name: 'terminal', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: truncateToolText(long) },
      {
        type: 'function_call_output',
        call_id: 'call_1',
        output: [{ type: 'input_image', image_url: 'http://o', detail: 'auto' }],
      },
    ]);
    // The reference replays the encrypted reasoning (stateless requests need it), keys in its order.
    expect(Object.keys(input[2] as object)).toEqual([
      'type',
      'id',
      'summary',
      'content',
      'encrypted_content',
      'status',
    ]);
  });

  it('joins several system messages with the reference separator, trimmed', () => {
    const messages = [msg({ role: 'system', content: [t(' a ')] }), msg({ role: 'system', content: [t('b\n')] })];
    expect(toResponsesInput(messages).instructions).toBe('a\n\n---\n\nb');
  });

  it('gives null instructions when no system prompt is left (hard context reset)', () => {
    // A condensation with summary_offset 0 that forgot the system prompt leaves a summary user message first.
    const messages = [msg({ role: 'user', content: [t('summary')] }), msg({ role: 'system', content: [t('  ')] })];
    expect(toResponsesInput(messages).instructions).toBeNull();
  });

  it('drops images without vision', () => {
    const user = msg({ role: 'user', content: [{ cache_prompt: false, type: 'image', image_urls: ['http://i'] }] });
    expect(toResponsesInput([user]).input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '' }] },
    ]);
  });

  it("drops a tool result's images without vision, and sends nothing for a tool message without a call id", () => {
    const image = { cache_prompt: false, type: 'image' as const, image_urls: ['http://o'] };
    const { input } = toResponsesInput([
      msg({ role: 'tool', tool_call_id: 'call_1', name: 'terminal', content: [t('out'), image] }),
      msg({ role: 'tool', name: 'terminal', content: [t('orphan'), image] }),
    ]);
    expect(input).toEqual([{ type: 'function_call_output', call_id: 'call_1', output: 'out' }]);
  });

  it("derives a function call's item id when its recorded one is empty, as the reference's `or` does", () => {
    const { input } = toResponsesInput([
      msg({
        role: 'assistant',
        tool_calls: [
          { id: 'call_9', responses_item_id: '', name: 'terminal', arguments: '{}', origin: 'responses' },
          { id: 'fc_9', name: 'terminal', arguments: '{}', origin: 'responses' },
        ],
      }),
    ]);
    expect(input.map((item) => (item as { id?: string }).id)).toEqual(['fc_call_9', 'fc_9']);
  });

  it('sends no reasoning content for an empty list, and no reasoning item without an id', () => {
    const reasoning = { summary: [], content: [] as string[] };
    const { input } = toResponsesInput([
      msg({ role: 'assistant', responses_reasoning_item: { id: 'rs_2', ...reasoning } }),
      msg({ role: 'assistant', responses_reasoning_item: reasoning }),
    ]);
    expect(input).toEqual([{ type: 'reasoning', id: 'rs_2', summary: [] }]);
  });
});
