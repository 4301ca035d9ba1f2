import { createEvent, type LLMConvertibleEvent, type View } from '@x/events';
import { describe, expect, it } from 'vitest';
import { eventTextsOf, fakeLLM, messageEvents, viewOf } from './__fixtures__/condenser-fixtures.js';
import { type CondenserContext, isCondensation } from './condenser.js';
import { LLMSummarizingCondenser } from './llm-summarizing-condenser.js';
import { NoCondensationAvailableError } from './no-condensation-available-error.js';

const ids = (events: readonly { id: string }[]) => events.map((event) => event.id);
// Ten tokens per message; alternating user/agent messages never merge, so one event is one message.
const tenPerMessage = ({ messages }: { messages: readonly unknown[] }) => messages.length * 10;

async function condensation(condenser: LLMSummarizingCondenser, view: View, context?: CondenserContext) {
  const result = await condenser.condense(view, context);
  if (!isCondensation(result)) throw new Error('expected a Condensation');
  return result;
}

/** `count` actions answered in one response (one batch), then their observations: no cut inside. */
function oneBatch(count: number): LLMConvertibleEvent[] {
  const calls = Array.from({ length: count }, (_, index) =>
    createEvent('ActionEvent', {
      thought: [],
      action: { kind: 'TerminalAction', command: `echo ${index}` },
      tool_name: 'terminal',
      tool_call_id: `batch_call_${index}`,
      tool_call: { id: `batch_call_${index}`, name: 'terminal', arguments: '{}', origin: 'completion' },
      llm_response_id: 'batch_response',
    }),
  );
  const results = calls.map((call) =>
    createEvent('ObservationEvent', {
      tool_name: 'terminal',
      tool_call_id: call.tool_call_id,
      action_id: call.id,
      observation: { kind: 'TerminalObservation', content: [{ type: 'text', text: 'ok' }] },
    }),
  );
  return [...calls, ...results];
}

describe('LLMSummarizingCondenser: when no cut exists', () => {
  it('resets the whole view, summary first, when a request leaves no tail to keep', async () => {
    // 4 events, keep_first 2: the tail 4 // 2 - 2 - 1 = -1 puts the cut past the end.
    const events = messageEvents(4);
    const view = viewOf(events, { request: true });
    const condenser = new LLMSummarizingCondenser({ llm: fakeLLM() });
    await expect(condenser.getCondensation(view)).rejects.toThrow(
      'Unable to compute forgotten events: no manipulation index at or after 5 in a view of 4 events',
    );
    const reset = await condensation(condenser, view);
    expect(reset.forgotten_event_ids).toEqual(ids(events));
    expect(reset.summary_offset).toBe(0);
  });

  it('resets with the summary at offset 0 when the view is shorter than keepFirst but over its tokens', async () => {
    const events = messageEvents(4);
    const view = viewOf(events);
    const condenser = new LLMSummarizingCondenser({
      llm: fakeLLM(() => 'all of it'),
      keepFirst: 8,
      maxTokens: 10,
      tokenCounter: tenPerMessage,
    });
    const context = { llm: fakeLLM() };
    await expect(condenser.getCondensation(view, context)).rejects.toThrow(
      'no manipulation index at or after 8 in a view of 4 events',
    );
    const reset = await condensation(condenser, view, context);
    expect(reset.summary_offset).toBe(0);
    view.append(reset);
    expect(view.events).toHaveLength(1);
    expect(view.events[0]).toMatchObject({ kind: 'CondensationSummaryEvent', summary: 'all of it' });
  });

  it('says there is nothing to forget when the range after keepFirst is one unbreakable batch', async () => {
    // Indices 0, 1, 2 and 12: keep_first 3 moves the start to 12, the end of the view.
    const view = viewOf([...messageEvents(2), ...oneBatch(5)], { request: true });
    const condenser = new LLMSummarizingCondenser({ llm: fakeLLM(), keepFirst: 3 });
    await expect(condenser.getCondensation(view)).rejects.toThrow('No events to forget between indices 12 and 12');
  });

  it('summarizes a single-event view in the hard reset', async () => {
    const events = messageEvents(1);
    const reset = await condensation(
      new LLMSummarizingCondenser({ llm: fakeLLM() }),
      viewOf(events, { request: true }),
    );
    expect(reset.forgotten_event_ids).toEqual(ids(events));
    expect(reset.summary_offset).toBe(0);
  });
});

describe('LLMSummarizingCondenser: small forgotten ranges', () => {
  it('forgets a single event when that alone removes enough tokens', async () => {
    // One long event right after the kept head holds most of the tokens: forgetting it is enough.
    const events = messageEvents(10);
    events[2] = messageEvents(3, 4000)[2] as LLMConvertibleEvent;
    const llm = fakeLLM();
    const condenser = new LLMSummarizingCondenser({ llm, maxTokens: 1000 });
    const result = await condensation(condenser, viewOf(events), { llm: fakeLLM() });
    expect(result.forgotten_event_ids).toEqual([events[2]?.id]);
    expect(result.summary_offset).toBe(2);
    expect(eventTextsOf(llm.requests[0]!)).toHaveLength(1);
  });

  it('accepts a condensation that forgets exactly the minimum progress', async () => {
    // 8 events + request, keep_first 2: tail 8 // 2 - 3 = 1, so events[2:7] (5 = 8 × 0.625) go.
    const condenser = new LLMSummarizingCondenser({ llm: fakeLLM(), minimumProgress: 0.625 });
    const events = messageEvents(8);
    const result = await condenser.getCondensation(viewOf(events, { request: true }));
    expect(result.forgotten_event_ids).toEqual(ids(events.slice(2, 7)));
  });
});

describe('LLMSummarizingCondenser: the summarizing call', () => {
  it('passes the caller’s abort signal to the summarizer, and none when there is none', async () => {
    const llm = fakeLLM();
    const condenser = new LLMSummarizingCondenser({ llm, maxSize: 20 });
    const signal = new AbortController().signal;
    await condensation(condenser, viewOf(messageEvents(21)), { signal });
    await condensation(condenser, viewOf(messageEvents(21)));
    expect(llm.requests[0]?.signal).toBe(signal);
    expect(llm.requests[1]).not.toHaveProperty('signal');
  });

  it('re-throws an abort of the caller’s signal instead of resetting the context', async () => {
    const controller = new AbortController();
    const llm = fakeLLM(() => {
      controller.abort();
      throw new Error('aborted');
    });
    const condenser = new LLMSummarizingCondenser({ llm, maxSize: 20 });
    const failure = condenser.condense(viewOf(messageEvents(21), { request: true }), { signal: controller.signal });
    await expect(failure).rejects.toThrow('aborted');
    await expect(failure).rejects.not.toBeInstanceOf(NoCondensationAvailableError);
    expect(llm.requests).toHaveLength(1);
  });

  it('never lets the hard-reset limit grow back once it has shrunk to nothing', async () => {
    const llm = fakeLLM(() => {
      throw new Error('summarizer down');
    });
    const condenser = new LLMSummarizingCondenser({
      llm,
      maxSize: 20,
      maxEventStrLength: 1,
      hardContextResetMaxRetries: 3,
      hardContextResetContextScaling: 0.5,
    });
    await expect(condenser.condense(viewOf(messageEvents(21, 100), { request: true }))).rejects.toThrow(
      NoCondensationAvailableError,
    );
    const longest = llm.requests.map((request) => Math.max(...eventTextsOf(request).map((text) => text.length)));
    // The condensation itself, then the resets at 1, 1 × 0.5 → 0 and 0.
    expect(longest).toEqual([1, 1, 0, 0]);
  });

  it('bounds the view by an agent LLM that declares an input limit of 1 token', () => {
    const condenser = new LLMSummarizingCondenser({ llm: fakeLLM(), tokenCounter: tenPerMessage });
    const agentLLM = fakeLLM(undefined, { maxInputTokens: 1 });
    expect(condenser.effectiveMaxTokens({ llm: agentLLM })).toBe(1);
    expect(condenser.condensationRequirement(viewOf(messageEvents(1)), { llm: agentLLM })).toBe('hard');
  });

  it('ignores an input limit that is not a positive number', () => {
    const condenser = new LLMSummarizingCondenser({ llm: fakeLLM(), maxTokens: 500, tokenCounter: tenPerMessage });
    for (const maxInputTokens of [0, -100]) {
      expect(condenser.effectiveMaxTokens({ llm: fakeLLM(undefined, { maxInputTokens }) })).toBe(500);
    }
  });
});

describe('LLMSummarizingCondenser: JSON', () => {
  it('writes max_event_str_length when set and leaves the key out when not', () => {
    const withLimit = new LLMSummarizingCondenser({ llm: fakeLLM(), maxEventStrLength: 400 }).toJSON();
    expect(withLimit.max_event_str_length).toBe(400);
    const without = new LLMSummarizingCondenser({ llm: fakeLLM() }).toJSON();
    expect(Object.keys(without)).not.toContain('max_event_str_length');
    expect(Object.keys(without)).not.toContain('max_tokens');
  });
});
