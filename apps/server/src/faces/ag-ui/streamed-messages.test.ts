import { createEvent, parseEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { StreamedMessages, streamAnchorOf } from './streamed-messages.js';

const base = { timestamp: '2026-01-01T00:00:00.000000' };
const t = (text: string) => ({ cache_prompt: false, type: 'text' as const, text });
const delta = (content?: string, reasoning?: string) =>
  createEvent('StreamingDeltaEvent', {
    ...(content === undefined ? {} : { content }),
    ...(reasoning === undefined ? {} : { reasoning_content: reasoning }),
  });
const agentMessage = (id: string, text: string) =>
  parseEvent({
    ...base,
    id,
    source: 'agent',
    llm_message: { role: 'assistant', content: [t(text)] },
    kind: 'MessageEvent',
  });

describe('StreamedMessages', () => {
  it('streams a reply as deltas and ends it with the logged message, under the deltas’ id, text not repeated', () => {
    const messages = new StreamedMessages();
    const events = [
      ...messages.delta(delta(undefined, 'Think'), 'e7'),
      ...messages.delta(delta(undefined, 'ing.'), 'e7'),
      ...messages.delta(delta('Hel'), 'e7'),
      ...messages.delta(delta('lo'), 'e7'),
      ...messages.logged(
        parseEvent({
          ...base,
          id: 's',
          source: 'environment',
          key: 'stats',
          value: {},
          kind: 'ConversationStateUpdateEvent',
        }),
      ),
      ...messages.logged(agentMessage('m1', 'Hello!')),
    ];
    expect(events).toEqual([
      { type: 'REASONING_START', messageId: 'e7:reasoning' },
      { type: 'REASONING_MESSAGE_START', messageId: 'e7:reasoning', role: 'reasoning' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'e7:reasoning', delta: 'Think' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'e7:reasoning', delta: 'ing.' },
      { type: 'REASONING_MESSAGE_END', messageId: 'e7:reasoning' },
      { type: 'REASONING_END', messageId: 'e7:reasoning' },
      { type: 'TEXT_MESSAGE_START', messageId: 'e7:text', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'e7:text', delta: 'Hel' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'e7:text', delta: 'lo' },
      // The stats update between closes nothing.
      // Only what the deltas did not carry.
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'e7:text', delta: '!' },
      { type: 'TEXT_MESSAGE_END', messageId: 'e7:text' },
    ]);
    expect(streamAnchorOf('e7:text')).toBe('e7');
    expect(streamAnchorOf('e7')).toBeUndefined();
  });

  it('hangs an action’s tool call on the streamed thought', () => {
    const messages = new StreamedMessages();
    messages.delta(delta('Listing.'), 'e1');
    const action = parseEvent({
      ...base,
      id: 'a1',
      source: 'agent',
      thought: [t('Listing.')],
      action: { command: 'ls', kind: 'TerminalAction' },
      tool_name: 'terminal',
      tool_call_id: 'call_1',
      tool_call: { id: 'call_1', name: 'terminal', arguments: '{"command":"ls"}', origin: 'completion' },
      llm_response_id: 'r1',
      kind: 'ActionEvent',
    });
    expect(messages.logged(action)).toEqual([
      { type: 'TEXT_MESSAGE_END', messageId: 'e1:text' },
      { type: 'TOOL_CALL_START', toolCallId: 'call_1', toolCallName: 'terminal', parentMessageId: 'e1:text' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'call_1', delta: '{"command":"ls"}' },
      { type: 'TOOL_CALL_END', toolCallId: 'call_1' },
    ]);
  });

  it('sends a logged text that does not continue the streamed one whole, under its event id; closes what is open', () => {
    const messages = new StreamedMessages();
    messages.delta(delta('Partial answer from a failed try'), 'e1');
    expect(messages.logged(agentMessage('m2', 'Another answer'))).toEqual([
      { type: 'TEXT_MESSAGE_END', messageId: 'e1:text' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm2', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2', delta: 'Another answer' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm2' },
    ]);
    messages.delta(delta('cut off'), 'm2');
    expect(messages.close()).toEqual([{ type: 'TEXT_MESSAGE_END', messageId: 'm2:text' }]);
    expect(messages.close()).toEqual([]);
  });
});
