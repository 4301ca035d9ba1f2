import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { eventsToMessages } from '../convert/events-to-messages.js';
import { ChatImportError } from '../errors/chat-import-error.js';
import { fromChatCompletionsMessages } from './from-chat-completions-messages.js';
import { toChatCompletionsMessages } from './to-chat-completions-messages.js';

const call = (id: string, name = 'terminal') => ({
  id,
  type: 'function' as const,
  function: { name, arguments: `{"id": "${id}"}` },
});

describe('fromChatCompletionsMessages', () => {
  it('imports each role as the matching event kind', () => {
    const chat: ChatCompletionMessageParam[] = [
      { role: 'system', content: 'be brief' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'image_url', image_url: { url: 'http://i' } },
        ],
      },
      { role: 'assistant', content: 'two calls', tool_calls: [call('c1'), call('c2', 'finish')] },
      { role: 'tool', tool_call_id: 'c1', content: 'out1' },
      { role: 'tool', tool_call_id: 'c2', content: [{ type: 'text', text: 'out2' }] },
      { role: 'assistant', content: 'done' },
    ];
    const events = fromChatCompletionsMessages(chat);
    expect(events.map((event) => event.kind)).toEqual([
      'SystemPromptEvent',
      'MessageEvent',
      'ActionEvent',
      'ActionEvent',
      'ObservationEvent',
      'ObservationEvent',
      'MessageEvent',
    ]);
    const [system, user, a1, a2, o1, o2, reply] = events;
    expect(system?.kind === 'SystemPromptEvent' && system.tools).toEqual([]);
    expect(user?.source).toBe('user');
    expect(reply?.source).toBe('agent');
    if (a1?.kind !== 'ActionEvent' || a2?.kind !== 'ActionEvent') throw new Error('expected actions');
    expect(a1.llm_response_id).toBe(a2.llm_response_id);
    expect(a1.thought.map((part) => part.text)).toEqual(['two calls']);
    expect(a2.thought).toEqual([]);
    expect(a1.action).toBeUndefined();
    if (o2?.kind !== 'ObservationEvent' || o1?.kind !== 'ObservationEvent') throw new Error('expected observations');
    expect(o2.action_id).toBe(a2.id);
    expect(o2.tool_name).toBe('finish');
    expect(o1.observation).toEqual({
      kind: 'ImportedObservation',
      content: [{ cache_prompt: false, type: 'text', text: 'out1' }],
      is_error: false,
    });

    const back = toChatCompletionsMessages(eventsToMessages(events), { forceStringSerializer: true });
    expect(back).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'two calls', tool_calls: [call('c1'), call('c2', 'finish')] },
      { role: 'tool', content: 'out1', tool_call_id: 'c1', name: 'terminal' },
      { role: 'tool', content: 'out2', tool_call_id: 'c2', name: 'finish' },
      { role: 'assistant', content: 'done' },
    ]);
  });

  // openai 7.26 added `original` to the image detail levels of its Chat Completions types: a history typed with
  // that SDK must still typecheck against the import (this file's typecheck), and every level import the same.
  it('takes an image part at every detail level the openai SDK allows, and keeps its URL alone', () => {
    const levels = ['auto', 'low', 'high', 'original'] as const;
    const events = fromChatCompletionsMessages([
      {
        role: 'user',
        content: levels.map((detail) => ({ type: 'image_url', image_url: { url: `https://i/${detail}`, detail } })),
      },
      { role: 'assistant', content: null, tool_calls: [call('c1')] },
      {
        role: 'tool',
        tool_call_id: 'c1',
        content: [{ type: 'image_url', image_url: { url: 'https://i/tool', detail: 'original' } }],
      },
    ]);
    const [user, , observation] = events;
    if (user?.kind !== 'MessageEvent') throw new Error(`expected a message, got ${user?.kind}`);
    expect(user.llm_message.content).toEqual(
      levels.map((detail) => ({ cache_prompt: false, type: 'image', image_urls: [`https://i/${detail}`] })),
    );
    if (observation?.kind !== 'ObservationEvent') throw new Error(`expected an observation, got ${observation?.kind}`);
    expect(observation.observation).toEqual({
      kind: 'ImportedObservation',
      content: [{ cache_prompt: false, type: 'image', image_urls: ['https://i/tool'] }],
      is_error: false,
    });
  });

  it('throws ChatImportError naming the index for an unknown tool call and unsupported input', () => {
    const unknown = () => fromChatCompletionsMessages([{ role: 'tool', tool_call_id: 'nope', content: 'x' }]);
    expect(unknown).toThrow(ChatImportError);
    expect(unknown).toThrow(/message 0 \(tool_call_id\).*nope/);
    const audio: ChatCompletionMessageParam = {
      role: 'user',
      content: [{ type: 'input_audio', input_audio: { data: 'AA', format: 'wav' } }],
    };
    expect(() => fromChatCompletionsMessages([{ role: 'user', content: 'a' }, audio])).toThrow(
      /message 1 \(content\[0\]\.type\)/,
    );
    expect(() => fromChatCompletionsMessages([{ role: 'function', name: 'f', content: 'x' }])).toThrow(ChatImportError);
  });
});
