import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  eventsToMessages,
  parseEventJson,
  serializeEvent,
  toChatCompletionsMessages,
  toResponsesInput,
  View,
} from '../src/index.js';
import { withParsedToolArguments } from './support/parsed-tool-arguments.js';

/**
 * Conversations the reference itself wrote and read (tooling/reference-oracle): random event sequences (batches of
 * tool calls, errors, rejections, calls left unanswered, condensations forgetting ranges or scattered events, with and
 * without summaries and offsets, pauses, requests, state updates, images, reasoning) and random observations and
 * actions of every kind the reference registers, with texts in many scripts and lengths past every truncation limit.
 * Each case holds the event files as the reference wrote them and what the reference derived from them: its View, and
 * the Chat Completions messages in both of its forms, and the Responses API `instructions` and `input`.
 *
 * The odd-shaped cases (gen3.py, names `odd_*`: empty and very long texts, content marked with `cache_prompt`, every
 * optional field, LLM-converted messages, calls answered twice or never, condensations that nest or forget unknown
 * ids) also hold the messages with caching alone on and `reasoning_content` sent, and the Responses input without
 * vision.
 *
 * The agent-loop cases (genloop.py and refresume.py, names `loop_*`) are conversations the reference's own
 * LocalConversation wrote with its tools, condenser and confirmation, and (`loop_rt_*`) x's continuations of them that
 * the reference continued again with a model repeating response ids of batches a condensation forgot. They hold the
 * other switches' forms too. The `loop_ev_*` ones (and `loop_rt_ev_*`, their round trips) hold every other kind that
 * loop writes: pauses and interrupts, hook runs and hook rejections, token ids, completion logs, stats and goal state
 * updates (floats and nulls inside free-form values), run limits and provider errors as conversation errors, tool errors
 * of every path, and the environment's nudges.
 */
interface OracleCase {
  name: string;
  files: Record<string, string>;
  expected: {
    kinds: string[];
    view_event_ids: string[];
    llm_visible_event_ids: string[];
    unhandled_condensation_request: boolean;
    messages: unknown[];
    messages_string_form: unknown[];
    responses: { instructions: string | null; input: unknown[] };
    messages_cache_reasoning?: unknown[];
    responses_no_vision?: unknown[];
  };
}

/** The event kinds the reference's LocalConversation and Agent write to a conversation's log (and its agent server's
 * stats and completion-log streams). */
const LOOP_KINDS = [
  'SystemPromptEvent',
  'MessageEvent',
  'ActionEvent',
  'ObservationEvent',
  'AgentErrorEvent',
  'UserRejectObservation',
  'Condensation',
  'CondensationRequest',
  'PauseEvent',
  'InterruptEvent',
  'ConversationStateUpdateEvent',
  'ConversationErrorEvent',
  'HookExecutionEvent',
  'TokenEvent',
  'LLMCompletionLogEvent',
];

const cases: OracleCase[] = readFileSync(
  join(import.meta.dirname, '__fixtures__', 'reference-oracle', 'cases.jsonl'),
  'utf8',
)
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => JSON.parse(line));

describe('conversations the reference wrote, read as the reference reads them', () => {
  it('has the whole corpus', () => {
    expect(cases.length).toBeGreaterThan(300);
    const odd = cases.filter((oracle) => oracle.name.startsWith('odd_'));
    expect(odd.length).toBeGreaterThanOrEqual(60);
    const loop = cases.filter((oracle) => oracle.name.startsWith('loop_'));
    expect(loop.length).toBeGreaterThanOrEqual(12);
    expect(loop.filter((oracle) => oracle.name.startsWith('loop_rt_')).length).toBeGreaterThanOrEqual(9);
    // Every kind the reference's own loop writes (genloop.py: pauses, interrupts, hooks, token ids, completion logs,
    // stats and goal updates, run limits and provider errors, tool errors, hook and user rejections, condensations).
    const loopKinds = new Set(loop.flatMap((oracle) => oracle.expected.kinds));
    for (const kind of LOOP_KINDS) expect(loopKinds, kind).toContain(kind);
    const loopUpdates = new Set(
      loop.flatMap((oracle) =>
        Object.values(oracle.files)
          .map((text) => JSON.parse(text) as { kind: string; key?: string })
          .filter((event) => event.kind === 'ConversationStateUpdateEvent')
          .map((event) => event.key),
      ),
    );
    expect([...loopUpdates]).toEqual(expect.arrayContaining(['stats', 'goal']));
    for (const oracle of [...odd, ...loop]) {
      expect(oracle.expected.messages_cache_reasoning).toBeDefined();
      expect(oracle.expected.responses_no_vision).toBeDefined();
    }
  });

  for (const oracle of cases) {
    it(oracle.name, () => {
      const names = Object.keys(oracle.files).sort();
      const events = names.map((name) => parseEventJson(oracle.files[name] as string));
      expect(events.map((event) => event.kind)).toEqual(oracle.expected.kinds);

      const view = View.fromEvents(events);
      expect(view.events.map((event) => event.id)).toEqual(oracle.expected.view_event_ids);
      expect(view.events.filter((event) => event.kind !== 'CondensationSummaryEvent').map((event) => event.id)).toEqual(
        oracle.expected.llm_visible_event_ids,
      );
      expect(view.unhandledCondensationRequest).toBe(oracle.expected.unhandled_condensation_request);

      const messages = eventsToMessages(view.events);
      const list = toChatCompletionsMessages(messages, {
        cacheEnabled: false,
        visionEnabled: true,
        functionCallingEnabled: true,
      });
      expect(withParsedToolArguments(list)).toEqual(withParsedToolArguments(oracle.expected.messages));
      const strings = toChatCompletionsMessages(messages, {
        forceStringSerializer: true,
        functionCallingEnabled: false,
      });
      expect(withParsedToolArguments(strings)).toEqual(withParsedToolArguments(oracle.expected.messages_string_form));
      expect(toResponsesInput(messages, { visionEnabled: true })).toEqual(oracle.expected.responses);
      if (oracle.name.startsWith('odd_') || oracle.name.startsWith('loop_')) {
        const cached = toChatCompletionsMessages(messages, {
          cacheEnabled: true,
          functionCallingEnabled: false,
          sendReasoningContent: true,
        });
        expect(withParsedToolArguments(cached)).toEqual(
          withParsedToolArguments(oracle.expected.messages_cache_reasoning ?? []),
        );
        expect(toResponsesInput(messages).input).toEqual(oracle.expected.responses_no_vision);
      }

      names.forEach((name, index) => {
        const text = oracle.files[name] as string;
        // Read back as the same bytes, and written from the object alone (as after a copy) as the same JSON.
        expect(serializeEvent(events[index]!)).toBe(text);
        expect(JSON.parse(serializeEvent(structuredClone(events[index]!)))).toEqual(JSON.parse(text));
      });
    });
  }
});
