// ConversationBudget against a host of plain values: what a run is let do, what a sub-agent may spend, and what
// survives in x_budget.json when another process writes it while this one runs.
import type { AnyEvent } from '@x/events';
import { createMemoryFileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import type { LLM, LLMResponse } from '../llm/llm.js';
import type { ConversationStatsSnapshot } from '../llm/metrics.js';
import { parseBudget } from './budget.js';
import { BUDGET_FILE, budgetRecordSchema, readBudgetRecord } from './budget-record.js';
import { type BudgetHost, ConversationBudget } from './conversation-budget.js';

// $1000 per million tokens: 15 tokens cost $0.015.
const pricing = { inputPerMillion: 1000, outputPerMillion: 1000 };

function fakeLLM(overrides: Partial<LLM> = {}): LLM {
  return {
    model: 'priced',
    usageId: 'agent',
    offline: false,
    pricing,
    complete: () => Promise.reject(new Error('the budget never calls the model')),
    ...overrides,
  };
}

function usageEntry(model: string, cost: number, tokens: { prompt: number; completion: number }) {
  return {
    model_name: model,
    accumulated_cost: cost,
    accumulated_token_usage: {
      model,
      prompt_tokens: tokens.prompt,
      completion_tokens: tokens.completion,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      reasoning_tokens: 0,
      context_window: 0,
      per_turn_token: tokens.prompt + tokens.completion,
      response_id: '',
    },
  };
}

function reply(id: string, usage: { prompt: number; completion: number } | null): LLMResponse {
  return {
    id,
    message: { role: 'assistant', content: [] } as unknown as LLMResponse['message'],
    finishReason: 'stop',
    usage: usage === null ? null : usageEntry('priced', 0, usage).accumulated_token_usage,
    cost: 0,
  } as LLMResponse;
}

/** A host on `store` that only reads and writes the record (another process's, setting a budget). */
function hostOf(store: BudgetHost['store']): BudgetHost {
  return {
    store,
    directory: 'c',
    llm: () => fakeLLM(),
    stats: () => ({ usage_to_metrics: {} }),
    hasPendingActions: () => false,
    emit: async () => undefined,
    setStatus: async () => undefined,
  };
}

function setup(llm: LLM = fakeLLM()) {
  const store = createMemoryFileStore();
  const emitted: AnyEvent[] = [];
  const statuses: string[] = [];
  let stats: ConversationStatsSnapshot = { usage_to_metrics: {} };
  const host: BudgetHost = {
    store,
    directory: 'c',
    llm: () => llm,
    stats: () => stats,
    hasPendingActions: () => false,
    emit: async (event) => {
      emitted.push(event);
    },
    setStatus: async (status) => {
      statuses.push(status);
    },
  };
  return {
    store,
    emitted,
    statuses,
    budget: new ConversationBudget(host),
    spend(usageId: string, cost: number, tokens = { prompt: 10, completion: 5 }, model = llm.model) {
      stats = { usage_to_metrics: { ...stats.usage_to_metrics, [usageId]: usageEntry(model, cost, tokens) } };
    },
    // What another process's `setBudget` does to the shared record.
    async raiseElsewhere(maxUsd: number) {
      const record = budgetRecordSchema.parse(JSON.parse(await store.read(`c/${BUDGET_FILE}`)));
      await store.write(`c/${BUDGET_FILE}`, JSON.stringify({ ...record, max_usd: maxUsd }));
    },
  };
}

describe('ConversationBudget.remaining (what a sub-agent may spend)', () => {
  it('is undefined without any budget in force', async () => {
    const { budget, spend } = setup();
    spend('agent', 0.2);
    expect(await budget.remaining()).toBe(undefined);
    await budget.beginRun(undefined);
    expect(await budget.remaining()).toBe(undefined);
  });

  it('is the least any budget has left, never below 0, and allows unknown cost only if every budget does', async () => {
    const { budget, spend } = setup();
    spend('agent', 0.3);
    await budget.set({ maxUsd: 1, allowUnknownCost: true });
    const conversationOnly = await budget.remaining();
    expect(conversationOnly?.remainingUsd).toBeCloseTo(0.7);
    expect(conversationOnly?.allowUnknownCost).toBe(true);

    await budget.beginRun({ maxUsd: 0.25 });
    spend('agent', 0.4);
    const withRun = await budget.remaining();
    expect(withRun?.remainingUsd).toBeCloseTo(0.15);
    expect(withRun?.allowUnknownCost).toBe(false);

    spend('agent', 0.9);
    expect((await budget.remaining())?.remainingUsd).toBe(0);
    budget.endRun();
    expect((await budget.remaining())?.remainingUsd).toBeCloseTo(0.1);
  });
});

describe('ConversationBudget.status', () => {
  it('reports no budget until one is set, and none again once it is removed', async () => {
    const { budget } = setup();
    expect((await budget.status()).budget).toBe(undefined);
    await budget.set({ maxUsd: 2, allowUnknownCost: true });
    expect((await budget.status()).budget).toEqual({ maxUsd: 2, allowUnknownCost: true });
    await budget.set(null);
    expect((await budget.status()).budget).toBe(undefined);
  });
});

describe('ConversationBudget.set', () => {
  it('keeps the replies of unknown cost another process noted since this one last read the record', async () => {
    const { budget, store } = setup();
    await budget.set(1);
    const record = await readBudgetRecord(store, 'c');
    await store.write(`c/${BUDGET_FILE}`, JSON.stringify({ ...record, unknown_cost_responses: ['elsewhere'] }));
    await budget.set(2);
    expect(await readBudgetRecord(store, 'c')).toMatchObject({ max_usd: 2, unknown_cost_responses: ['elsewhere'] });
  });
});

describe('ConversationBudget.noteResponse', () => {
  it('counts a reply that reported any token as known cost, and one without usage as unknown', async () => {
    const { budget } = setup();
    await budget.set(5);
    await budget.noteResponse(fakeLLM(), reply('one-token', { prompt: 1, completion: 0 }));
    expect((await budget.status()).unknownCost.responses).toEqual([]);
    await budget.noteResponse(fakeLLM(), reply('no-usage', null));
    await budget.noteResponse(fakeLLM(), reply('zero-usage', { prompt: 0, completion: 0 }));
    expect((await budget.status()).unknownCost.responses).toEqual(['no-usage', 'zero-usage']);
  });

  it('records nothing without a budget in force', async () => {
    const { budget, store } = setup();
    await budget.noteResponse(fakeLLM(), reply('no-usage', null));
    expect(await store.exists(`c/${BUDGET_FILE}`)).toBe(false);
    expect((await budget.status()).unknownCost.responses).toEqual([]);
  });

  it('keeps a budget another process raised while this one ran', async () => {
    const { budget, raiseElsewhere, store } = setup();
    await budget.set(1);
    await budget.beginRun(undefined);
    await raiseElsewhere(3);
    await budget.noteResponse(fakeLLM(), reply('no-usage', null));
    const record = await readBudgetRecord(store, 'c');
    expect(record.max_usd).toBe(3);
    expect(record.unknown_cost_responses).toEqual(['no-usage']);
  });
});

describe('ConversationBudget.guard', () => {
  it('lets the call through when another process raised the budget since the run began', async () => {
    const { budget, raiseElsewhere, spend, emitted, statuses } = setup();
    await budget.set(0.02);
    spend('agent', 0.015);
    await budget.beginRun(undefined);
    await raiseElsewhere(1);
    expect(await budget.guard()).toEqual({ proceed: true });
    expect(emitted).toEqual([]);
    expect(statuses).toEqual([]);
  });

  it('stops a run under a budget another process set since this one last read the record', async () => {
    const { budget, spend, store, emitted, statuses } = setup();
    expect((await budget.status()).budget).toBeUndefined();
    spend('agent', 0.015);
    // Another process (another ConversationBudget on the same record) sets a budget already spent.
    await new ConversationBudget(hostOf(store)).set(0.01);
    await budget.beginRun(undefined);
    expect((await budget.guard()).proceed).toBe(false);
    expect(emitted.map((event) => event.kind)).toEqual(['ConversationErrorEvent']);
    // The status goes to `error` as the reference records it (a state update readers of the log see).
    expect(statuses).toEqual(['error']);
  });

  it('records a stop without undoing what another process wrote to the record', async () => {
    const { budget, spend, store } = setup();
    await budget.set(0.02);
    spend('agent', 0.015);
    await budget.beginRun(undefined);
    // Another process notes a reply of unknown cost in the shared record meanwhile.
    const record = await readBudgetRecord(store, 'c');
    await store.write(`c/${BUDGET_FILE}`, JSON.stringify({ ...record, unknown_cost_responses: ['elsewhere'] }));
    const verdict = await budget.guard();
    expect(verdict.proceed).toBe(false);
    const after = await readBudgetRecord(store, 'c');
    expect(after.unknown_cost_responses).toEqual(['elsewhere']);
    expect(after.last_stop?.reason).toBe('unknown_cost');
  });

  it('lets a model given a price of $0 run under a budget; another model of no price still stops it', async () => {
    const free = fakeLLM({ model: 'local-free', pricing: { inputPerMillion: 0, outputPerMillion: 0 } });
    const { budget, spend, emitted } = setup(free);
    await budget.set(1);
    spend('agent', 0, { prompt: 400, completion: 20 });
    await budget.beginRun(undefined);
    expect(await budget.guard()).toEqual({ proceed: true });
    expect((await budget.status()).unknownCost.usageIds).toEqual([]);
    expect(emitted).toEqual([]);
    // The same usage id having recorded another model: its $0 is not this model's price.
    spend('agent', 0, { prompt: 400, completion: 20 }, 'unpriced-elsewhere');
    spend('condenser', 0, { prompt: 10, completion: 0 }, 'unpriced-elsewhere');
    expect((await budget.status()).unknownCost.usageIds).toEqual(['agent', 'condenser']);
    expect((await budget.guard()).proceed).toBe(false);
  });

  it('lets a model priced at $0 run under a $0 budget; a paid or unpriced model, or one free of input only, stops', async () => {
    const free = fakeLLM({ model: 'local-free', pricing: { inputPerMillion: 0, outputPerMillion: 0 } });
    const freeRun = setup(free);
    await freeRun.budget.set(0);
    await freeRun.budget.beginRun(parseBudget(0));
    expect(await freeRun.budget.guard()).toEqual({ proceed: true });
    freeRun.spend('agent', 0, { prompt: 400, completion: 20 });
    expect(await freeRun.budget.guard()).toEqual({ proceed: true });
    expect(freeRun.emitted).toEqual([]);
    const stops: [string, Partial<LLM>][] = [
      ['paid', {}],
      ['unpriced', { model: 'unpriced-model', pricing: undefined }],
      ['output paid', { pricing: { inputPerMillion: 0, outputPerMillion: 1 } }],
      ['cache reads paid', { pricing: { inputPerMillion: 0, outputPerMillion: 0, cachedInputPerMillion: 1 } }],
      ['cache writes paid', { pricing: { inputPerMillion: 0, outputPerMillion: 0, cacheWritePerMillion: 1 } }],
    ];
    for (const [what, overrides] of stops) {
      const { budget } = setup(fakeLLM(overrides));
      await budget.set({ maxUsd: 0, allowUnknownCost: true });
      expect({ what, proceed: (await budget.guard()).proceed }).toEqual({ what, proceed: false });
    }
  });

  it('counts a reply without usage from a model priced at $0 as free, not unknown', async () => {
    const free = fakeLLM({ model: 'local-free', pricing: { inputPerMillion: 0, outputPerMillion: 0 } });
    const { budget, store } = setup(free);
    await budget.set(0);
    await budget.noteResponse(free, reply('r-free', null));
    expect((await readBudgetRecord(store, 'c')).unknown_cost_responses).toEqual([]);
    expect(await budget.guard()).toEqual({ proceed: true });
    // Free of input only: what its reply cost is unknown.
    const half = fakeLLM({ model: 'half', pricing: { inputPerMillion: 0, outputPerMillion: 1 } });
    await budget.noteResponse(half, reply('r-half', null));
    expect((await readBudgetRecord(store, 'c')).unknown_cost_responses).toEqual(['r-half']);
  });

  it('lets the offline model run under a budget: it costs $0, not an unknown amount', async () => {
    const offline = fakeLLM({ model: 'offline', offline: true, pricing: undefined });
    const { budget, spend, emitted } = setup(offline);
    await budget.set(1);
    spend('agent', 0, { prompt: 400, completion: 20 });
    await budget.beginRun(undefined);
    expect(await budget.guard()).toEqual({ proceed: true });
    expect((await budget.status()).unknownCost.usageIds).toEqual([]);
    expect(emitted).toEqual([]);
  });
});
