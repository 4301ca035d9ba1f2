import type { Condensation, View } from '@x/events';
import { describe, expect, it } from 'vitest';
import { eventTextsOf, fakeLLM, messageEvents, promptOf, toolPair, viewOf } from './__fixtures__/condenser-fixtures.js';
import { isCondensation } from './condenser.js';
import { InvalidCondenserConfigError } from './invalid-condenser-config-error.js';
import { defaultCondenser, LLMSummarizingCondenser } from './llm-summarizing-condenser.js';
import { NoCondensationAvailableError } from './no-condensation-available-error.js';

async function condensation(condenser: LLMSummarizingCondenser, view: View): Promise<Condensation> {
  const result = await condenser.condense(view);
  if (!isCondensation(result)) throw new Error('expected a Condensation');
  return result;
}

const ids = (events: readonly { id: string }[]) => events.map((event) => event.id);

describe('LLMSummarizingCondenser: forgotten range (§6.5 examples)', () => {
  it('25 events + request, max_size 20 → forgets events[2:18]', async () => {
    const events = messageEvents(25);
    const result = await condensation(
      new LLMSummarizingCondenser({ llm: fakeLLM(), maxSize: 20 }),
      viewOf(events, { request: true }),
    );
    expect(result.forgotten_event_ids).toEqual(ids(events.slice(2, 18)));
    expect(result.summary_offset).toBe(2);
  });

  it('40 events + request, max_size 30 → forgets events[2:28]', async () => {
    const events = messageEvents(40);
    const result = await condensation(
      new LLMSummarizingCondenser({ llm: fakeLLM(), maxSize: 30 }),
      viewOf(events, { request: true }),
    );
    expect(result.forgotten_event_ids).toEqual(ids(events.slice(2, 28)));
  });

  it('max_size 10, keep_first 3, 11 events → summary_offset 3', async () => {
    const events = messageEvents(11);
    const result = await condensation(
      new LLMSummarizingCondenser({ llm: fakeLLM(), maxSize: 10, keepFirst: 3 }),
      viewOf(events),
    );
    expect(result.summary_offset).toBe(3);
    expect(result.forgotten_event_ids).toEqual(ids(events.slice(3, 10)));
  });

  it('moves both cut points to the next manipulation index so no action is cut from its result', async () => {
    // Two messages then nine action/observation pairs: manipulation indices are 0, 1, 2, 4, 6, ..., 20.
    const events = [...messageEvents(2), ...Array.from({ length: 9 }, (_, index) => toolPair(index)).flat()];
    // keepFirst 2: keep 20 // 2 - 2 - 1 = 7 at the tail, so the naive cut at 13 moves to 14.
    const endMoved = await condensation(
      new LLMSummarizingCondenser({ llm: fakeLLM() }),
      viewOf(events, { request: true }),
    );
    expect(endMoved.summary_offset).toBe(2);
    expect(endMoved.forgotten_event_ids).toEqual(ids(events.slice(2, 14)));
    // keepFirst 3 lies inside the first pair, so the start moves to 4 (the tail of 6 gives a cut at 14).
    const startMoved = await condensation(
      new LLMSummarizingCondenser({ llm: fakeLLM(), keepFirst: 3 }),
      viewOf(events, { request: true }),
    );
    expect(startMoved.summary_offset).toBe(4);
    expect(startMoved.forgotten_event_ids).toEqual(ids(events.slice(4, 14)));
  });

  it('does nothing when no reason applies', async () => {
    const view = viewOf(messageEvents(20));
    const llm = fakeLLM();
    const condenser = new LLMSummarizingCondenser({ llm, maxSize: 20 });
    expect(condenser.condensationRequirement(view)).toBeNull();
    expect(await condenser.condense(view)).toBe(view);
    expect(llm.requests).toHaveLength(0);
  });
});

describe('LLMSummarizingCondenser: summary', () => {
  it('sends every forgotten event and none of the kept ones, in one user message', async () => {
    const events = messageEvents(25);
    const llm = fakeLLM();
    await condensation(new LLMSummarizingCondenser({ llm, maxSize: 20 }), viewOf(events, { request: true }));
    expect(llm.requests).toHaveLength(1);
    const request = llm.requests[0]!;
    expect(request.tools).toBeUndefined();
    const prompt = promptOf(request);
    for (const section of ['USER_CONTEXT', 'TASK_TRACKING', 'COMPLETED', 'PENDING', 'CURRENT_STATE', 'CODE_STATE']) {
      expect(prompt).toContain(section);
    }
    const texts = eventTextsOf(request);
    expect(texts).toHaveLength(16);
    for (let index = 0; index < 25; index++) {
      const marker = `event-${String(index).padStart(2, '0')}`;
      const forgotten = index >= 2 && index < 18;
      expect(texts.some((text) => text.includes(marker))).toBe(forgotten);
      expect(prompt.includes(marker)).toBe(forgotten);
    }
  });

  it('takes the first text of the reply as the summary and the reply id as llm_response_id', async () => {
    const result = await condensation(
      new LLMSummarizingCondenser({ llm: fakeLLM(() => 'USER_CONTEXT: build a parser'), maxSize: 20 }),
      viewOf(messageEvents(25), { request: true }),
    );
    expect(result.summary).toBe('USER_CONTEXT: build a parser');
    expect(result.llm_response_id).toBe('summary-response-1');
  });

  it('puts the summary at the offset and removes the forgotten events once applied to the view', async () => {
    const events = messageEvents(25);
    const view = viewOf(events, { request: true });
    const result = await condensation(
      new LLMSummarizingCondenser({ llm: fakeLLM(() => 'the summary'), maxSize: 20 }),
      view,
    );
    expect(view.events).toHaveLength(25);
    view.append(result);
    expect(view.unhandledCondensationRequest).toBe(false);
    expect(ids(view.events.slice(0, 2))).toEqual(ids(events.slice(0, 2)));
    expect(view.events[2]).toMatchObject({ kind: 'CondensationSummaryEvent', summary: 'the summary' });
    expect(ids(view.events.slice(3))).toEqual(ids(events.slice(18)));
    expect(view.events).toHaveLength(2 + 1 + 7);
  });

  it('records no summary when the reply has no text', async () => {
    const result = await condensation(
      new LLMSummarizingCondenser({ llm: fakeLLM(() => null), maxSize: 20 }),
      viewOf(messageEvents(25), { request: true }),
    );
    expect(result.summary).toBeUndefined();
    expect(result.forgotten_event_ids).toHaveLength(16);
  });

  it('middle-truncates each event to maxEventStrLength', async () => {
    const llm = fakeLLM();
    await condensation(
      new LLMSummarizingCondenser({ llm, maxSize: 20, maxEventStrLength: 60 }),
      viewOf(messageEvents(25, 500), { request: true }),
    );
    const texts = eventTextsOf(llm.requests[0]!);
    expect(texts.every((text) => text.length === 60)).toBe(true);
    expect(texts[0]).toContain('characters omitted');
  });
});

describe('LLMSummarizingCondenser: SOFT and HARD requirements', () => {
  const failing = () => {
    throw new Error('summarizer down');
  };

  it('is SOFT for too many events and HARD for a request', () => {
    const condenser = new LLMSummarizingCondenser({ llm: fakeLLM(), maxSize: 20 });
    expect(condenser.condensationRequirement(viewOf(messageEvents(21)))).toBe('soft');
    expect(condenser.condensationRequirement(viewOf(messageEvents(20)))).toBeNull();
    expect(condenser.condensationRequirement(viewOf(messageEvents(5), { request: true }))).toBe('hard');
    expect(condenser.condensationReasons(viewOf(messageEvents(25), { request: true }))).toEqual(
      new Set(['request', 'events']),
    );
  });

  it('keeps the view when a SOFT condensation fails', async () => {
    const llm = fakeLLM(failing);
    const view = viewOf(messageEvents(21));
    expect(await new LLMSummarizingCondenser({ llm, maxSize: 20 }).condense(view)).toBe(view);
    expect(llm.requests).toHaveLength(1);
  });

  it('falls back to a hard context reset of the whole view when a HARD condensation fails', async () => {
    const events = messageEvents(25);
    const llm = fakeLLM((_, index) => {
      if (index === 0) throw new Error('context window exceeded');
      return 'everything so far';
    });
    const result = await condensation(
      new LLMSummarizingCondenser({ llm, maxSize: 20 }),
      viewOf(events, { request: true }),
    );
    expect(result.forgotten_event_ids).toEqual(ids(events));
    expect(result.summary_offset).toBe(0);
    expect(result.summary).toBe('everything so far');
  });

  it('shrinks the per-event text limit by the scaling factor on each failed reset attempt, then re-throws', async () => {
    const events = messageEvents(12, 1000);
    const llm = fakeLLM(failing);
    const condenser = new LLMSummarizingCondenser({ llm, maxSize: 20, hardContextResetMaxRetries: 4 });
    await expect(condenser.condense(viewOf(events, { request: true }))).rejects.toThrow(NoCondensationAvailableError);
    expect(llm.requests).toHaveLength(1 + 4);
    const longest = llm.requests.slice(1).map((request) => Math.max(...eventTextsOf(request).map((t) => t.length)));
    expect(eventTextsOf(llm.requests[1]!)).toHaveLength(12);
    const first = longest[0]!;
    expect(first).toBeGreaterThan(1000);
    expect(longest).toEqual([
      first,
      Math.floor(first * 0.8),
      Math.floor(Math.floor(first * 0.8) * 0.8),
      Math.floor(Math.floor(Math.floor(first * 0.8) * 0.8) * 0.8),
    ]);
  });

  it('starts the hard reset from maxEventStrLength when one is set', async () => {
    const llm = fakeLLM(failing);
    const condenser = new LLMSummarizingCondenser({
      llm,
      maxSize: 20,
      maxEventStrLength: 500,
      hardContextResetMaxRetries: 2,
      hardContextResetContextScaling: 0.5,
    });
    await expect(condenser.condense(viewOf(messageEvents(12, 1000), { request: true }))).rejects.toThrow(
      NoCondensationAvailableError,
    );
    const longest = llm.requests.map((request) => Math.max(...eventTextsOf(request).map((t) => t.length)));
    expect(longest).toEqual([500, 500, 250]);
  });

  it('enforces the minimum progress', async () => {
    const condenser = new LLMSummarizingCondenser({ llm: fakeLLM(), maxSize: 20, minimumProgress: 0.9 });
    const view = viewOf(messageEvents(21));
    await expect(condenser.getCondensation(view)).rejects.toThrow(/minimum progress/);
    expect(await condenser.condense(view)).toBe(view);
    // 16 of 25 events (0.64) passes a minimum of 0.6 and fails one of 0.65.
    const requested = viewOf(messageEvents(25), { request: true });
    const passing = new LLMSummarizingCondenser({ llm: fakeLLM(), maxSize: 20, minimumProgress: 0.6 });
    expect((await passing.getCondensation(requested)).forgotten_event_ids).toHaveLength(16);
    const failingProgress = new LLMSummarizingCondenser({ llm: fakeLLM(), maxSize: 20, minimumProgress: 0.65 });
    const failure = failingProgress.getCondensation(requested);
    await expect(failure).rejects.toThrow(NoCondensationAvailableError);
    await expect(failure).rejects.toThrow('Forgetting 16 of 25 events does not reach the minimum progress of 0.65');
  });

  it('reports that no cut exists when the tail cannot be reached', async () => {
    // Asked to keep more events than the view has: no manipulation index lies that far.
    const view = viewOf([...messageEvents(4)], { request: true });
    const condenser = new LLMSummarizingCondenser({ llm: fakeLLM(), keepFirst: 8, maxSize: 20 });
    await expect(condenser.getCondensation(view)).rejects.toThrow(/Unable to compute forgotten events/);
  });
});

describe('LLMSummarizingCondenser: tokens', () => {
  // Every event is one message of 10 tokens (user and agent messages alternate, so none merge).
  const tokenCounter = ({ messages }: { messages: readonly unknown[] }) => messages.length * 10;

  it('is HARD when the view exceeds maxTokens, with the agent LLM given', () => {
    const condenser = new LLMSummarizingCondenser({ llm: fakeLLM(), maxTokens: 100, tokenCounter });
    const view = viewOf(messageEvents(11));
    expect(condenser.condensationRequirement(view, { llm: fakeLLM() })).toBe('hard');
    expect(condenser.condensationRequirement(view)).toBeNull();
    expect(condenser.condensationRequirement(viewOf(messageEvents(10)), { llm: fakeLLM() })).toBeNull();
  });

  it("uses the agent LLM's maxInputTokens when smaller", () => {
    const condenser = new LLMSummarizingCondenser({ llm: fakeLLM(), maxTokens: 1000, tokenCounter });
    const agentLLM = fakeLLM(undefined, { maxInputTokens: 50 });
    expect(condenser.effectiveMaxTokens({ llm: agentLLM })).toBe(50);
    expect(condenser.condensationRequirement(viewOf(messageEvents(6)), { llm: agentLLM })).toBe('hard');
  });

  it('forgets enough events to bring the view to half the limit', async () => {
    const events = messageEvents(20);
    const condenser = new LLMSummarizingCondenser({ llm: fakeLLM(), maxTokens: 100, tokenCounter });
    const result = await condenser.condense(viewOf(events), { llm: fakeLLM() });
    if (!isCondensation(result)) throw new Error('expected a Condensation');
    // 200 tokens, reduce by 200 - 50 = 150: the shortest prefix of events[2:] above 150 is 16 events.
    expect(result.forgotten_event_ids).toEqual(ids(events.slice(2, 18)));
  });
});

describe('LLMSummarizingCondenser: configuration', () => {
  it('rejects maxSize // 2 - keepFirst - 1 <= 0, naming the values', () => {
    expect(() => new LLMSummarizingCondenser({ llm: fakeLLM(), maxSize: 10, keepFirst: 8 })).toThrow(
      /maxSize 10 and keepFirst 8 give -4/,
    );
    expect(() => new LLMSummarizingCondenser({ llm: fakeLLM(), maxSize: 10, keepFirst: 3 })).not.toThrow();
    expect(() => new LLMSummarizingCondenser({ llm: fakeLLM(), maxSize: 10, keepFirst: 4 })).toThrow(
      InvalidCondenserConfigError,
    );
  });

  it('rejects out-of-range settings, naming each one', () => {
    let caught: unknown;
    try {
      new LLMSummarizingCondenser({
        llm: fakeLLM(),
        maxSize: 0,
        keepFirst: -1,
        minimumProgress: 1,
        hardContextResetMaxRetries: 0,
        hardContextResetContextScaling: 1.5,
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidCondenserConfigError);
    const problems = (caught as InvalidCondenserConfigError).problems.join('\n');
    for (const name of [
      'maxSize',
      'keepFirst',
      'minimumProgress',
      'hardContextResetMaxRetries',
      'hardContextResetContextScaling',
    ]) {
      expect(problems).toContain(`${name}:`);
    }
    expect(problems).toContain('(got 1.5)');
  });

  it('has the reference defaults, handles requests, and defaultCondenser uses 80 / 4', () => {
    const condenser = new LLMSummarizingCondenser({ llm: fakeLLM() });
    expect(condenser.settings).toEqual({
      maxSize: 240,
      keepFirst: 2,
      minimumProgress: 0.1,
      hardContextResetMaxRetries: 5,
      hardContextResetContextScaling: 0.8,
    });
    expect(condenser.handlesCondensationRequests()).toBe(true);
    expect(defaultCondenser(fakeLLM()).settings).toMatchObject({ maxSize: 80, keepFirst: 4 });
  });

  it('serializes to the reference JSON', () => {
    expect(new LLMSummarizingCondenser({ llm: fakeLLM(), maxTokens: 5000 }).toJSON()).toEqual({
      llm: { model: 'fake-model', usage_id: 'condenser' },
      max_size: 240,
      max_tokens: 5000,
      keep_first: 2,
      minimum_progress: 0.1,
      hard_context_reset_max_retries: 5,
      hard_context_reset_context_scaling: 0.8,
      kind: 'LLMSummarizingCondenser',
    });
  });
});
