import type { ConversationStatsSnapshot } from '@x/agent';
import type { Colors } from './colors.js';
import { formatCount, formatDuration } from './truncate.js';

/** Usage summed over every LLM of a conversation (agent, condenser, ...). */
export interface UsageTotals {
  models: string[];
  promptTokens: number;
  completionTokens: number;
  cacheReadTokens: number;
  reasoningTokens: number;
  cost: number;
  /** Models that used tokens but cost nothing: no price is known for them (the offline model is free). */
  unpriced: string[];
}

export function usageTotals(stats: ConversationStatsSnapshot): UsageTotals {
  const totals: UsageTotals = {
    models: [],
    promptTokens: 0,
    completionTokens: 0,
    cacheReadTokens: 0,
    reasoningTokens: 0,
    cost: 0,
    unpriced: [],
  };
  for (const metrics of Object.values(stats.usage_to_metrics)) {
    if (metrics.model_name !== '' && !totals.models.includes(metrics.model_name))
      totals.models.push(metrics.model_name);
    const usage = metrics.accumulated_token_usage;
    totals.promptTokens += usage.prompt_tokens;
    totals.completionTokens += usage.completion_tokens;
    totals.cacheReadTokens += usage.cache_read_tokens;
    totals.reasoningTokens += usage.reasoning_tokens;
    totals.cost += metrics.accumulated_cost;
    const used = usage.prompt_tokens + usage.completion_tokens > 0;
    const name = metrics.model_name === '' ? 'unnamed model' : metrics.model_name;
    if (used && metrics.accumulated_cost === 0 && name !== 'offline' && !totals.unpriced.includes(name)) {
      totals.unpriced.push(name);
    }
  }
  return totals;
}

/** Dollars: cents from $0.01 up; below that, two significant digits (`$0.0000045`), never a rounded `$0.00`. */
export function formatCost(cost: number): string {
  if (cost === 0 || cost >= 0.01) return `$${cost.toFixed(2)}`;
  if (cost < 1e-10) return '<$0.0000000001';
  const digits = 1 - Math.floor(Math.log10(cost));
  return `$${cost.toFixed(digits).replace(/0+$/, '')}`;
}

/** The cost, or what is unknown about it: `$0.00` only when nothing that has a price was used. */
export function costText(totals: UsageTotals): string {
  if (totals.unpriced.length === 0) return formatCost(totals.cost);
  const which = `no price for ${totals.unpriced.join(', ')}`;
  return totals.cost === 0 ? `cost unknown (${which})` : `${formatCost(totals.cost)} + unknown (${which})`;
}

export function tokensText(totals: UsageTotals): string {
  const all = totals.promptTokens + totals.completionTokens;
  const parts = [`${formatCount(totals.promptTokens)} in`, `${formatCount(totals.completionTokens)} out`];
  if (totals.cacheReadTokens > 0) parts.push(`${formatCount(totals.cacheReadTokens)} cached`);
  if (totals.reasoningTokens > 0) parts.push(`${formatCount(totals.reasoningTokens)} reasoning`);
  return `${formatCount(all)} tokens (${parts.join(', ')})`;
}

/** The closing line of a run or replay: iterations, tokens, cost and (for a live run) elapsed time. */
export function statsLine(
  input: { stats: ConversationStatsSnapshot; iterations: number; elapsedMs?: number },
  colors: Colors,
): string {
  const totals = usageTotals(input.stats);
  const parts = [
    `${input.iterations} iteration${input.iterations === 1 ? '' : 's'}`,
    tokensText(totals),
    costText(totals),
  ];
  if (input.elapsedMs !== undefined) parts.push(formatDuration(input.elapsedMs));
  return colors.dim(`── ${parts.join(' · ')}`);
}
