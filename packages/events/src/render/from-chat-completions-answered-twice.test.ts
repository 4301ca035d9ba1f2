// A tool result for a call that an earlier result already answered: the View sends the model one result per call, so
// the second would be dropped from every request without a word. It is refused, naming both messages; a later turn
// that reuses the call's id (some OpenAI-compatible servers number calls per turn) is a new call, answered anew.
import { describe, expect, it } from 'vitest';
import { ChatImportError } from '../errors/chat-import-error.js';
import { fromChatCompletionsMessages } from './from-chat-completions-messages.js';

type ChatMessages = Parameters<typeof fromChatCompletionsMessages>[0];
type ChatMessage = ChatMessages[number];
const turn = (id: string): ChatMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name: 'ls', arguments: '{}' } }],
});
const result = (id: string, content: string): ChatMessage => ({ role: 'tool', tool_call_id: id, content });

describe('fromChatCompletionsMessages and a call answered twice', () => {
  it('refuses the second result, naming it and the message that answered first', () => {
    const messages: ChatMessages = [
      { role: 'user', content: 'list' },
      turn('call_1'),
      result('call_1', 'a.txt'),
      result('call_1', 'b.txt'),
    ];
    let error: unknown;
    try {
      fromChatCompletionsMessages(messages);
    } catch (thrown) {
      error = thrown;
    }
    expect(ChatImportError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ index: 3, path: 'tool_call_id' });
    expect((error as Error).message).toContain('message 2 already answered');
  });

  it('takes a reused id in a later turn as a new call', () => {
    const events = fromChatCompletionsMessages([
      { role: 'user', content: 'list' },
      turn('call_0'),
      result('call_0', 'a.txt'),
      turn('call_0'),
      result('call_0', 'b.txt'),
    ]);
    expect(events.map((event) => event.kind)).toEqual([
      'MessageEvent',
      'ActionEvent',
      'ObservationEvent',
      'ActionEvent',
      'ObservationEvent',
    ]);
    expect(events[4]).toMatchObject({ action_id: events[3]?.id });
  });
});
