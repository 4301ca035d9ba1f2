import { describe, expect, it } from 'vitest';
import {
  action,
  agentError,
  agentMessage,
  observation,
  system,
  text,
  thinking,
  userMessage,
} from '../../test/support/event-builders.js';
import { createEvent } from '../create/create-event.js';
import { MultiActionThoughtError } from '../errors/multi-action-thought-error.js';
import { EventsError } from '../errors.js';
import { eventsToMessages } from './events-to-messages.js';

describe('eventsToMessages', () => {
  it('groups consecutive actions of one response into one assistant message', () => {
    const a1 = createEvent('ActionEvent', {
      ...action('c1', 'r1', { thought: 'both', thinking }),
      reasoning_content: 'first reasoning',
    });
    const a2 = createEvent('ActionEvent', { ...action('c2', 'r1'), reasoning_content: 'ignored' });
    const messages = eventsToMessages([system(), userMessage('go'), a1, a2, observation('c1'), observation('c2')]);
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool']);
    expect(messages[2]).toEqual({
      role: 'assistant',
      content: [text('both')],
      tool_calls: [a1.tool_call, a2.tool_call],
      reasoning_content: 'first reasoning',
      thinking_blocks: thinking,
    });
  });

  it('never merges consecutive actions of different responses', () => {
    // Two LLM responses in a row with no observation between them (e.g. a log repaired after a crash):
    // each response stays its own assistant message, thoughts included; no MultiActionThoughtError.
    const a1 = action('c1', 'r1', { thought: 'first' });
    const a2 = action('c2', 'r2', { thought: 'second' });
    const a3 = action('c3', 'r2');
    const messages = eventsToMessages([userMessage('go'), a1, a2, a3, observation('c1'), observation('c2')]);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant', 'tool', 'tool']);
    expect(messages[1]?.tool_calls).toEqual([a1.tool_call]);
    expect(messages[1]?.content).toEqual([text('first')]);
    expect(messages[2]?.tool_calls).toEqual([a2.tool_call, a3.tool_call]);
    expect(messages[2]?.content).toEqual([text('second')]);
  });

  it('throws MultiActionThoughtError when a later batch member has a thought', () => {
    const events = [action('c1', 'r1', { thought: 'a' }), action('c2', 'r1', { thought: 'b' })];
    expect(() => eventsToMessages(events)).toThrow(MultiActionThoughtError);
    try {
      eventsToMessages(events);
    } catch (error) {
      expect(EventsError.isInstance(error)).toBe(true);
      expect((error as MultiActionThoughtError).eventId).toBe('A-c2');
      expect((error as Error).message).toContain('Expected empty thought for multi-action events after the first one');
    }
  });

  it('merges consecutive plain user messages, cascading, and nothing else', () => {
    const summary = createEvent('CondensationSummaryEvent', { source: 'environment', summary: 'sum' });
    const messages = eventsToMessages([
      userMessage('a'),
      summary,
      userMessage('b'),
      agentMessage('x'),
      agentMessage('y'),
      action('c1', 'r1'),
      observation('c1'),
      observation('c1', 'again', 'O2'),
    ]);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant', 'assistant', 'tool', 'tool']);
    expect(messages[0]?.content).toEqual([text('a'), text('sum'), text('b')]);
  });

  it('keeps log order for the [valid1, invalid2, valid3] batch', () => {
    const events = [
      action('c1', 'r1', { thought: 'three calls' }),
      action('c2', 'r1', { executable: false }),
      agentError('c2'),
      action('c3', 'r1'),
      observation('c1'),
      observation('c3'),
    ];
    const messages = eventsToMessages(events);
    expect(messages.map((m) => [m.role, m.tool_calls?.map((c) => c.id) ?? m.tool_call_id])).toEqual([
      ['assistant', ['c1', 'c2']],
      ['tool', 'c2'],
      ['assistant', ['c3']],
      ['tool', 'c1'],
      ['tool', 'c3'],
    ]);
    expect(messages[2]?.content).toEqual([]);
  });

  it('skips non-convertible events without splitting a batch, and never mutates its input', () => {
    const pause = createEvent('PauseEvent', { source: 'user' });
    const u1 = userMessage('a');
    const u2 = userMessage('b');
    const events = [u1, pause, action('c1', 'r1', { thought: 't' }), pause, action('c2', 'r1'), u2];
    const before = JSON.stringify(events);
    const messages = eventsToMessages(events);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[1]?.tool_calls).toHaveLength(2);
    eventsToMessages([u1, u2, userMessage('c')]);
    expect(JSON.stringify(events)).toBe(before);
    expect(u1.llm_message.content).toEqual([text('a')]);
  });
});
