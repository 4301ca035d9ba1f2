import fc from 'fast-check';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import {
  type AnyEvent,
  createEvent,
  eventsToMessages,
  fromChatCompletionsMessages,
  toChatCompletionsMessages,
  View,
} from '../src/index.js';
import {
  action,
  agentError,
  agentMessage,
  condensation,
  observation,
  system,
  userMessage,
} from './support/event-builders.js';

type Step =
  | { type: 'user' }
  | { type: 'reply' }
  | { type: 'request' }
  | { type: 'batch'; results: ('obs' | 'error' | 'missing')[]; interleaveUser: boolean; thinking: boolean }
  | { type: 'condense'; forget: number[]; summaryOffset: number | null };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.constant({ type: 'user' as const }),
  fc.constant({ type: 'reply' as const }),
  fc.constant({ type: 'request' as const }),
  fc.record({
    type: fc.constant('batch' as const),
    results: fc.array(fc.constantFrom('obs' as const, 'obs' as const, 'error' as const, 'missing' as const), {
      minLength: 1,
      maxLength: 3,
    }),
    interleaveUser: fc.boolean(),
    thinking: fc.boolean(),
  }),
  fc.record({
    type: fc.constant('condense' as const),
    forget: fc.array(fc.nat(), { maxLength: 4 }),
    summaryOffset: fc.option(fc.nat({ max: 12 })),
  }),
);

/** A well-formed log: the shapes the agent writes, including parallel batches and missing results. */
function buildLog(steps: Step[]): AnyEvent[] {
  const events: AnyEvent[] = [system()];
  let n = 0;
  for (const step of steps) {
    n += 1;
    switch (step.type) {
      case 'user':
        events.push(userMessage(`u${n}`));
        break;
      case 'reply':
        events.push(agentMessage(`r${n}`));
        break;
      case 'request':
        events.push(createEvent('CondensationRequest', { source: 'environment' }));
        break;
      case 'batch': {
        const calls = step.results.map((_, i) => `c${n}_${i}`);
        calls.forEach((callId, i) => {
          const thinking =
            step.thinking && i === 0 ? [{ type: 'thinking' as const, thinking: 't', signature: 's' }] : [];
          events.push(action(callId, `resp${n}`, { ...(i === 0 ? { thought: `t${n}` } : {}), thinking }));
        });
        if (step.interleaveUser) events.push(userMessage(`mid${n}`));
        calls.forEach((callId, i) => {
          if (step.results[i] === 'obs') events.push(observation(callId));
          else if (step.results[i] === 'error') events.push(agentError(callId));
        });
        break;
      }
      case 'condense': {
        const candidates = events.filter((event) => event.kind !== 'SystemPromptEvent');
        const forget = step.forget.map((i) => candidates[i % Math.max(candidates.length, 1)]?.id).filter(Boolean);
        events.push(
          condensation(
            `C${n}`,
            forget as string[],
            step.summaryOffset === null ? undefined : { summary: `summary ${n}`, offset: step.summaryOffset },
          ),
        );
        break;
      }
    }
  }
  return events;
}

describe('conversion properties', () => {
  it('every tool call is answered by exactly one tool message, in log order', () => {
    fc.assert(
      fc.property(fc.array(stepArbitrary, { maxLength: 25 }), (steps) => {
        const events = buildLog(steps);
        const view = View.fromEvents(events);
        const messages = toChatCompletionsMessages(eventsToMessages(view.events));

        const calls = messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : []));
        const answers = messages.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []));
        expect(new Set(calls).size).toBe(calls.length);
        expect([...answers].sort()).toEqual([...calls].sort());
        messages.forEach((m, index) => {
          if (m.role !== 'tool') return;
          const callIndex = messages.findIndex(
            (c) => c.role === 'assistant' && (c.tool_calls ?? []).some((tc) => tc.id === m.tool_call_id),
          );
          expect(callIndex).toBeGreaterThanOrEqual(0);
          expect(callIndex).toBeLessThan(index);
        });

        const logIndex = new Map(events.map((event, i) => [event.id, i]));
        const positions = view.events.filter((e) => logIndex.has(e.id)).map((e) => logIndex.get(e.id) as number);
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
        const viewCalls = view.events.flatMap((e) => (e.kind === 'ActionEvent' ? [e.tool_call_id] : []));
        expect(calls).toEqual(viewCalls);
      }),
      { numRuns: 300 },
    );
  });

  it('View.fromEvents equals appending incrementally', () => {
    fc.assert(
      fc.property(fc.array(stepArbitrary, { maxLength: 25 }), (steps) => {
        const events = buildLog(steps);
        const incremental = new View();
        for (const event of events) {
          incremental.append(event);
          incremental.manipulationIndices();
        }
        expect(View.fromEvents(events).events).toEqual(incremental.events);
        expect(View.fromEvents(events).unhandledCondensationRequest).toBe(incremental.unhandledCondensationRequest);
      }),
      { numRuns: 200 },
    );
  });

  it('imported Chat Completions histories convert back to equivalent messages', () => {
    const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta');
    const turn = fc.oneof(
      word.map((text) => [{ role: 'user' as const, content: text }]),
      word.map((text) => [{ role: 'assistant' as const, content: text }]),
      fc.tuple(fc.option(word), fc.integer({ min: 1, max: 3 }), word),
    );
    fc.assert(
      fc.property(fc.option(word), fc.array(turn, { maxLength: 12 }), (systemText, turns) => {
        let callCounter = 0;
        const chat: ChatCompletionMessageParam[] = systemText === null ? [] : [{ role: 'system', content: systemText }];
        for (const item of turns) {
          if (!Array.isArray(item) || item.length !== 3) {
            chat.push(...(item as ChatCompletionMessageParam[]));
            continue;
          }
          const [thought, count, output] = item as [string | null, number, string];
          const calls = Array.from({ length: count }, () => {
            const id = `call_${callCounter++}`;
            return {
              id,
              type: 'function' as const,
              function: { name: 'terminal', arguments: `{"n": ${callCounter}}` },
            };
          });
          chat.push({ role: 'assistant', ...(thought === null ? {} : { content: thought }), tool_calls: calls });
          for (const c of calls) chat.push({ role: 'tool', tool_call_id: c.id, content: `${output} ${c.id}` });
        }
        const back = toChatCompletionsMessages(eventsToMessages(fromChatCompletionsMessages(chat)), {
          forceStringSerializer: true,
        });
        expect(back).toEqual(expectedRoundTrip(chat));
      }),
      { numRuns: 200 },
    );
  });
});

/** What the reference would send for `chat`: consecutive user turns merge; tool results carry the tool name. */
function expectedRoundTrip(chat: ChatCompletionMessageParam[]): unknown[] {
  const out: Record<string, unknown>[] = [];
  for (const message of chat) {
    const previous = out[out.length - 1];
    if (message.role === 'user' && previous?.role === 'user') {
      previous.content = `${String(previous.content)}\n${String(message.content)}`;
    } else if (message.role === 'tool') {
      out.push({ role: 'tool', content: message.content, tool_call_id: message.tool_call_id, name: 'terminal' });
    } else {
      out.push({ ...message });
    }
  }
  return out;
}
