// Reasoning that a model streams after its reply began (`ag-ui-reasoning-after-text.test.ts` drives it through
// `@ag-ui/client`): each stretch is a reasoning message of its own, with an id of its own, and the text stays open.
import { createEvent, parseEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { StreamedMessages } from './streamed-messages.js';

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

describe('StreamedMessages, reasoning after the text began', () => {
  it('streams it as a message of its own, the text left open and ended by its log event', () => {
    const messages = new StreamedMessages();
    const events = [
      ...messages.delta(delta(undefined, 'First.'), 'e4'),
      ...messages.delta(delta('Let me '), 'e4'),
      ...messages.delta(delta(undefined, 'Second.'), 'e4'),
      ...messages.delta(delta('answer.', 'Third.'), 'e4'),
      ...messages.logged(agentMessage('m4', 'Let me answer.')),
    ];
    expect(events).toEqual([
      { type: 'REASONING_START', messageId: 'e4:reasoning' },
      { type: 'REASONING_MESSAGE_START', messageId: 'e4:reasoning', role: 'reasoning' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'e4:reasoning', delta: 'First.' },
      { type: 'REASONING_MESSAGE_END', messageId: 'e4:reasoning' },
      { type: 'REASONING_END', messageId: 'e4:reasoning' },
      { type: 'TEXT_MESSAGE_START', messageId: 'e4:text', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'e4:text', delta: 'Let me ' },
      { type: 'REASONING_START', messageId: 'e4:reasoning:2' },
      { type: 'REASONING_MESSAGE_START', messageId: 'e4:reasoning:2', role: 'reasoning' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'e4:reasoning:2', delta: 'Second.' },
      // A delta with both: its reasoning goes on the open reasoning message, which its text then ends.
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'e4:reasoning:2', delta: 'Third.' },
      { type: 'REASONING_MESSAGE_END', messageId: 'e4:reasoning:2' },
      { type: 'REASONING_END', messageId: 'e4:reasoning:2' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'e4:text', delta: 'answer.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'e4:text' },
    ]);
  });

  it('gives a third stretch under one anchor the next id, and closes what a run leaves open', () => {
    const messages = new StreamedMessages();
    messages.delta(delta(undefined, 'One.'), 'e5');
    messages.delta(delta('Text '), 'e5');
    messages.delta(delta(undefined, 'Two.'), 'e5');
    messages.delta(delta('more '), 'e5');
    expect(messages.delta(delta(undefined, 'Three.'), 'e5')).toEqual([
      { type: 'REASONING_START', messageId: 'e5:reasoning:3' },
      { type: 'REASONING_MESSAGE_START', messageId: 'e5:reasoning:3', role: 'reasoning' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'e5:reasoning:3', delta: 'Three.' },
    ]);
    expect(messages.close()).toEqual([
      { type: 'REASONING_MESSAGE_END', messageId: 'e5:reasoning:3' },
      { type: 'REASONING_END', messageId: 'e5:reasoning:3' },
      { type: 'TEXT_MESSAGE_END', messageId: 'e5:text' },
    ]);
    expect(messages.close()).toEqual([]);
  });

  it('ends an open reasoning message once, with the log event that closes the stream', () => {
    const messages = new StreamedMessages();
    messages.delta(delta(undefined, 'Hmm.'), 'e6');
    expect(messages.logged(agentMessage('m6', 'Done.'))).toEqual([
      { type: 'REASONING_MESSAGE_END', messageId: 'e6:reasoning' },
      { type: 'REASONING_END', messageId: 'e6:reasoning' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm6', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm6', delta: 'Done.' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm6' },
    ]);
    expect(messages.close()).toEqual([]);
  });
});
