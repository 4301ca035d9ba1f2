import { createMemoryFileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import { parseBudget, parseBudgetUsd } from './budget.js';
import { BUDGET_FILE, readBudgetRecord } from './budget-record.js';
import { type ActiveBudget, budgetStopDetail, checkBudget } from './check-budget.js';
import { InvalidBudgetError } from './invalid-budget-error.js';

const conversationBudget = (limitUsd: number, allowUnknownCost = false): ActiveBudget => ({
  scope: 'conversation',
  limitUsd,
  baselineUsd: 0,
  allowUnknownCost,
});
const known = { model: 'm', modelPriceKnown: true, modelFree: false, unknownCostResponses: [] };

describe('checkBudget', () => {
  it('lets a call through while spend plus its estimate stays within the limit', () => {
    const spend = { spentUsd: 0.03, unknownCostUsageIds: [] };
    expect(checkBudget({ ...known, budgets: [conversationBudget(0.05)], spend, nextCallEstimateUsd: 0.02 })).toBe(
      undefined,
    );
    expect(
      checkBudget({ ...known, budgets: [conversationBudget(0.05)], spend, nextCallEstimateUsd: 0.021 }),
    ).toMatchObject({ reason: 'limit', spent_usd: 0.03, limit_usd: 0.05 });
  });

  it('stops once the spend has reached the limit, even with no estimate (a zero budget runs no paid model)', () => {
    const spend = { spentUsd: 0, unknownCostUsageIds: [] };
    expect(checkBudget({ ...known, budgets: [conversationBudget(0)], spend, nextCallEstimateUsd: 0 })).toMatchObject({
      reason: 'limit',
    });
  });

  it('lets a model priced at $0 run with the spend at the limit ($0 = spend no money), never past it', () => {
    const free = { ...known, modelFree: true, nextCallEstimateUsd: 0 };
    const nothing = { spentUsd: 0, unknownCostUsageIds: [] };
    expect(checkBudget({ ...free, budgets: [conversationBudget(0)], spend: nothing })).toBe(undefined);
    // At the limit of a run budget, counted from its baseline, and of a conversation budget spent to the cent.
    const run: ActiveBudget = { scope: 'run', limitUsd: 0, baselineUsd: 0.25, allowUnknownCost: false };
    const atLimit = { spentUsd: 0.25, unknownCostUsageIds: [] };
    expect(checkBudget({ ...free, budgets: [conversationBudget(0.25), run], spend: atLimit })).toBe(undefined);
    // Past the limit (spent by a paid model before), it stops: the budget is spent, free call or not.
    expect(checkBudget({ ...free, budgets: [conversationBudget(0.2)], spend: atLimit })).toMatchObject({
      reason: 'limit',
      spent_usd: 0.25,
    });
    expect(checkBudget({ ...free, budgets: [run], spend: { ...atLimit, spentUsd: 0.26 } })).toMatchObject({
      reason: 'limit',
      scope: 'run',
    });
    // An unknown cost still stops it (a reply without usage, tokens at no known price) unless allowed.
    const unknownUsage = { spentUsd: 0, unknownCostUsageIds: ['condenser'] };
    expect(checkBudget({ ...free, budgets: [conversationBudget(0)], spend: unknownUsage })).toMatchObject({
      reason: 'unknown_cost',
    });
    expect(
      checkBudget({ ...free, budgets: [conversationBudget(0)], spend: nothing, unknownCostResponses: ['r1'] }),
    ).toMatchObject({ reason: 'unknown_cost' });
  });

  it('stops a model of unknown price under a $0 budget, even where unknown cost is allowed', () => {
    const spend = { spentUsd: 0, unknownCostUsageIds: [] };
    const unpriced = { ...known, modelPriceKnown: false, modelFree: false, nextCallEstimateUsd: 0 };
    expect(checkBudget({ ...unpriced, budgets: [conversationBudget(0)], spend })).toMatchObject({
      reason: 'unknown_cost',
    });
    expect(checkBudget({ ...unpriced, budgets: [conversationBudget(0, true)], spend })).toMatchObject({
      reason: 'limit',
    });
  });

  it('counts a run budget from its baseline', () => {
    const run: ActiveBudget = { scope: 'run', limitUsd: 0.01, baselineUsd: 1, allowUnknownCost: false };
    const spend = { spentUsd: 1.005, unknownCostUsageIds: [] };
    expect(checkBudget({ ...known, budgets: [run], spend, nextCallEstimateUsd: 0.004 })).toBe(undefined);
    expect(checkBudget({ ...known, budgets: [run], spend, nextCallEstimateUsd: 0.006 })).toMatchObject({
      scope: 'run',
    });
  });

  it('stops on unknown cost unless every budget allows it', () => {
    const spend = { spentUsd: 0, unknownCostUsageIds: ['default'] };
    const input = { ...known, spend, nextCallEstimateUsd: 0 };
    expect(checkBudget({ ...input, budgets: [conversationBudget(1)] })).toMatchObject({ reason: 'unknown_cost' });
    expect(checkBudget({ ...input, budgets: [conversationBudget(1, true)] })).toBe(undefined);
    expect(
      checkBudget({
        ...known,
        modelPriceKnown: false,
        modelFree: false,
        budgets: [conversationBudget(1)],
        spend: { spentUsd: 0, unknownCostUsageIds: [] },
        nextCallEstimateUsd: 0,
      }),
    ).toMatchObject({ reason: 'unknown_cost' });
  });
});

describe('budgetStopDetail', () => {
  it('names the usage that spent tokens at no known price, even when it is the only one', () => {
    const spend = { spentUsd: 0.5, unknownCostUsageIds: ['condenser'] };
    const stop = checkBudget({ ...known, budgets: [conversationBudget(1)], spend, nextCallEstimateUsd: 0 });
    const detail = budgetStopDetail(stop!);
    expect(detail).toContain('usage condenser spent tokens at no known price');
    expect(detail).toContain("Agent stopped before calling 'm'");
    expect(detail).toContain('under a budget of $1.0000; accumulated cost $0.5000');
  });
});

describe('budget input', () => {
  it('accepts dollars and refuses negative, non-finite and non-numeric ones with invalid_budget', () => {
    expect(parseBudget(0.5)).toEqual({ maxUsd: 0.5 });
    expect(parseBudgetUsd('$1.25')).toBe(1.25);
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, '1', { maxUsd: 1, extra: 1 }]) {
      expect(() => parseBudget(bad)).toThrow(InvalidBudgetError);
    }
    for (const bad of ['-1', 'abc', '', '1e3']) expect(() => parseBudgetUsd(bad)).toThrow(/not a number of dollars/);
  });

  it('refuses a corrupt x_budget.json rather than reading it as no budget', async () => {
    const store = createMemoryFileStore();
    expect((await readBudgetRecord(store, 'c')).max_usd).toBe(null);
    await store.write(`c/${BUDGET_FILE}`, '{"version":1,"max_usd":');
    await expect(readBudgetRecord(store, 'c')).rejects.toSatisfy(
      (error) => InvalidBudgetError.isInstance(error) && /x_budget\.json is not JSON/.test((error as Error).message),
    );
  });
});
