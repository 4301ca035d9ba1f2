import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { action, agentMessage, observation, system, thinking, userMessage } from '../../test/support/event-builders.js';
import { MultiActionThoughtError } from '../errors/multi-action-thought-error.js';
import { parseEvent } from '../json/parse-event.js';
import { registerEventKind } from '../registry/default-registry.js';
import type { AnyEvent } from '../schemas/events.js';
import { eventsToMessages } from './events-to-messages.js';

/** The messages of a fresh copy of `events`: the conversion with no memo to reuse. */
const fresh = (events: readonly AnyEvent[]) => eventsToMessages([...events]);

describe('eventsToMessages after a conversion that threw', () => {
  it('converts the same array again from what it holds, not from the messages the failed conversion made', () => {
    const a = agentMessage('a');
    const b = agentMessage('b');
    const live: AnyEvent[] = [system(), a, b];
    expect(eventsToMessages(live)).toEqual(fresh(live));
    // Changed in place: two new messages, then a batch whose second action has a thought (refused).
    live.splice(1, 2, agentMessage('y'), agentMessage('z'), action('c1', 'r1', { thought: 'one' }));
    live.push(action('c2', 'r1', { thought: 'two' }));
    expect(() => eventsToMessages(live)).toThrow(MultiActionThoughtError);
    // Back to the first events (the same objects): the messages of the failed conversion must not come back.
    live.splice(1, live.length - 1, a, b);
    expect(eventsToMessages(live)).toEqual(fresh(live));
  });
});

describe('eventsToMessages freezes what it returns', () => {
  it('every message, its content, tool calls and thinking blocks, merged or batched across calls', () => {
    const live: AnyEvent[] = [system(), userMessage('a')];
    const all: ReturnType<typeof eventsToMessages>[] = [eventsToMessages(live)];
    // A user message merged into the previous call's last message; a batch grown across calls.
    for (const event of [
      userMessage('b'),
      action('c1', 'r1', { thought: 'two calls', thinking }),
      action('c2', 'r1'),
      observation('c1'),
      observation('c2'),
      userMessage('c'),
    ]) {
      live.push(event);
      all.push(eventsToMessages(live));
    }
    expect(all.at(-1)?.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user']);
    for (const messages of all) {
      for (const message of messages) {
        expect(Object.isFrozen(message)).toBe(true);
        expect(Object.isFrozen(message.content)).toBe(true);
        if (message.tool_calls !== undefined) expect(Object.isFrozen(message.tool_calls)).toBe(true);
        if (message.thinking_blocks !== undefined) expect(Object.isFrozen(message.thinking_blocks)).toBe(true);
      }
    }
    expect(all.at(-1)?.[2]?.tool_calls).toHaveLength(2);
  });
});

describe('eventsToMessages with a custom kind whose hook gives no message', () => {
  registerEventKind(
    'EdgeTestQuietEvent',
    z.object({
      id: z.string(),
      timestamp: z.string(),
      source: z.enum(['agent', 'user', 'environment', 'hook']),
      parent_id: z.string().optional(),
      note: z.string(),
      kind: z.literal('EdgeTestQuietEvent'),
    }),
    {
      toLlmMessage: (event) =>
        event.note === 'quiet'
          ? undefined
          : { role: 'user', content: [{ cache_prompt: false, type: 'text', text: event.note }], thinking_blocks: [] },
    },
  );
  const note = (value: string, id: string) =>
    parseEvent({ id, timestamp: '2026-01-01T00:00:00', source: 'user', note: value, kind: 'EdgeTestQuietEvent' });

  it('skips the event, without splitting the user messages around it', () => {
    const events = [system(), userMessage('a'), note('quiet', 'q1'), userMessage('b'), note('said', 'q2')];
    const messages = eventsToMessages(events);
    expect(messages).toEqual(fresh([system(), userMessage('a'), userMessage('b'), note('said', 'q2')]));
    expect(messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(messages[1]?.content.map((part) => (part.type === 'text' ? part.text : ''))).toEqual(['a', 'b', 'said']);
  });
});
