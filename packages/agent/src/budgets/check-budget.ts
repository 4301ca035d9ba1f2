import type { BudgetStop } from './budget-record.js';
import type { Spend } from './spend.js';

/** One budget in force for a run: the conversation's, or the run's own (counted from `baselineUsd`). */
export interface ActiveBudget {
  scope: BudgetStop['scope'];
  limitUsd: number;
  /** Spend when the budget started counting (0 for the conversation's; the spend at run start for a run's). */
  baselineUsd: number;
  allowUnknownCost: boolean;
}

export interface BudgetCheckInput {
  budgets: readonly ActiveBudget[];
  spend: Spend;
  /** The model about to be called, whether its price is known, and the estimated cost of the call. */
  model: string;
  modelPriceKnown: boolean;
  /**
   * Whether the model's price is known to be $0 for every token (`isFreeModel`; never for an unknown price): its call
   * spends nothing, so it may run with the spend at the limit (a $0 budget means "spend no money", not "call no
   * model").
   */
  modelFree: boolean;
  nextCallEstimateUsd: number;
  /** Replies recorded without usage (their cost is unknown). */
  unknownCostResponses: readonly string[];
}

/** The figures of a stop, before it is recorded. */
export type BudgetStopFigures = Omit<BudgetStop, 'error_event_id' | 'recorded_at'>;

/**
 * Whether the next model call may be made. It may not when a budget's spend has reached its limit (the estimate is a
 * lower bound, so any paid call would pass it) or the call's estimate would pass it, nor when a cost is unknown (a
 * model without a price, tokens at no cost, replies without usage) and some budget does not allow that: an unknown
 * cost is never counted as $0. A call of a model priced at $0 (`modelFree`) spends nothing: it may be made while the
 * spend is at the limit, not past it.
 */
export function checkBudget(input: BudgetCheckInput): BudgetStopFigures | undefined {
  const { budgets, spend } = input;
  const unknown =
    !input.modelPriceKnown || spend.unknownCostUsageIds.length > 0 || input.unknownCostResponses.length > 0;
  for (const budget of budgets) {
    const spentUsd = spend.spentUsd - budget.baselineUsd;
    const figures = {
      scope: budget.scope,
      limit_usd: budget.limitUsd,
      spent_usd: spentUsd,
      next_call_estimate_usd: input.nextCallEstimateUsd,
      model: input.model,
      unknown_cost_usage_ids: spend.unknownCostUsageIds,
    };
    if (unknown && !budget.allowUnknownCost) return { reason: 'unknown_cost', ...figures };
    if ((spentUsd >= budget.limitUsd && !input.modelFree) || spentUsd + input.nextCallEstimateUsd > budget.limitUsd) {
      return { reason: 'limit', ...figures };
    }
  }
  return undefined;
}

/** The ConversationErrorEvent's detail: the reference's sentence, then the figures it lacks. */
export function budgetStopDetail(stop: BudgetStopFigures): string {
  const usd = (value: number) => `$${value.toFixed(4)}`;
  const scope = stop.scope === 'run' ? 'run budget' : 'budget';
  if (stop.reason === 'unknown_cost') {
    const what =
      stop.unknown_cost_usage_ids.length > 0
        ? `usage ${stop.unknown_cost_usage_ids.join(', ')} spent tokens at no known price`
        : `model '${stop.model}' has no known price or reported no usage`;
    return (
      `Agent stopped before calling '${stop.model}': spend is unknown (${what}) under a ${scope} of ${usd(stop.limit_usd)}; ` +
      `accumulated cost ${usd(stop.spent_usd)}. Allow it with allowUnknownCost, or give the model a price.`
    );
  }
  return (
    `Agent reached maximum budget limit (${usd(stop.limit_usd)}); accumulated cost ${usd(stop.spent_usd)}. ` +
    `The next call to '${stop.model}' was estimated at ${usd(stop.next_call_estimate_usd)} (${scope}).`
  );
}
