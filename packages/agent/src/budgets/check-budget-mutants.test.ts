// checkBudget's and the record's edges: one reply of unknown cost, the detail of each kind of stop, and what a
// conversation without x_budget.json (or with a bad one) reads as.
import { createMemoryFileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import { parseBudget, parseBudgetUsd } from './budget.js';
import { BUDGET_FILE, readBudgetRecord } from './budget-record.js';
import { type ActiveBudget, budgetStopDetail, checkBudget } from './check-budget.js';
import { InvalidBudgetError } from './invalid-budget-error.js';

const budget = (scope: ActiveBudget['scope'], limitUsd: number): ActiveBudget => ({
  scope,
  limitUsd,
  baselineUsd: 0,
  allowUnknownCost: false,
});
const nothingSpent = { spentUsd: 0, unknownCostUsageIds: [] };
const input = { model: 'm', modelPriceKnown: true, modelFree: false, nextCallEstimateUsd: 0, spend: nothingSpent };

describe('checkBudget: unknown cost', () => {
  it('stops on a single reply that reported no usage, with a known price and nothing else unknown', () => {
    expect(checkBudget({ ...input, budgets: [budget('conversation', 1)], unknownCostResponses: [] })).toBe(undefined);
    expect(
      checkBudget({ ...input, budgets: [budget('conversation', 1)], unknownCostResponses: ['resp-1'] }),
    ).toMatchObject({ reason: 'unknown_cost', unknown_cost_usage_ids: [] });
  });
});

describe('budgetStopDetail', () => {
  it('blames the model when no usage id spent at no price, and names a run budget', () => {
    const stop = checkBudget({
      ...input,
      modelPriceKnown: false,
      modelFree: false,
      budgets: [budget('run', 2)],
      unknownCostResponses: [],
    });
    const detail = budgetStopDetail(stop!);
    expect(detail).toContain("spend is unknown (model 'm' has no known price or reported no usage)");
    expect(detail).toContain('under a run budget of $2.0000');
  });

  it("starts a limit stop with the reference's sentence and names the budget's scope", () => {
    const spend = { spentUsd: 0.5, unknownCostUsageIds: [] };
    const conversation = checkBudget({
      ...input,
      spend,
      budgets: [budget('conversation', 0.5)],
      unknownCostResponses: [],
    });
    expect(budgetStopDetail(conversation!)).toBe(
      'Agent reached maximum budget limit ($0.5000); accumulated cost $0.5000. ' +
        "The next call to 'm' was estimated at $0.0000 (budget).",
    );
    const run = checkBudget({ ...input, spend, budgets: [budget('run', 0.5)], unknownCostResponses: [] });
    expect(budgetStopDetail(run!)).toContain('(run budget)');
  });
});

describe('readBudgetRecord', () => {
  it('reads a conversation without x_budget.json as no budget, unknown cost not allowed', async () => {
    expect(await readBudgetRecord(createMemoryFileStore(), 'c')).toEqual({
      version: 1,
      max_usd: null,
      allow_unknown_cost: false,
      unknown_cost_responses: [],
      last_stop: null,
    });
  });

  it('refuses a record that is JSON but not a budget, saying what is wrong', async () => {
    const store = createMemoryFileStore();
    const record = { version: 1, max_usd: -1, allow_unknown_cost: false, unknown_cost_responses: [], last_stop: null };
    await store.write(`c/${BUDGET_FILE}`, JSON.stringify(record));
    await expect(readBudgetRecord(store, 'c')).rejects.toSatisfy(
      (error) =>
        InvalidBudgetError.isInstance(error) &&
        /x_budget\.json does not parse: max_usd: Too small: expected number to be >=0$/.test((error as Error).message),
    );
  });
});

describe('a bad budget', () => {
  it('is refused naming where it came from, the field, what was wrong and what a budget is', () => {
    expect(() => parseBudget({ maxUsd: -1 }, 'RunOptions.budget')).toThrow(
      'RunOptions.budget.maxUsd: Too small: expected number to be >=0 (got {"maxUsd":-1}); a budget is a number of dollars ≥ 0',
    );
    expect(() => parseBudgetUsd('ten', '--budget')).toThrow(
      "--budget: 'ten' is not a number of dollars ≥ 0 (e.g. 0.50)",
    );
  });
});
