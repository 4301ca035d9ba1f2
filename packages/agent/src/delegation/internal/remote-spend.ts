import { emptyTokenUsage, type MetricsSnapshot } from '../../llm/metrics.js';
import type { RemoteAnswer, RemoteUsage } from '../remote-sub-agent.js';

/** A remote answer in one shape: a bare string reported no usage. */
export function remoteAnswerOf(answer: string | RemoteAnswer): RemoteAnswer {
  return typeof answer === 'string' ? { text: answer } : answer;
}

/**
 * A remote sub-agent's spend so far, with one more task's `usage` added, as the metrics the parent's stats keep
 * under `delegate:<id>`: its dollars, and its tokens (tokens without dollars are an unknown cost to budgets).
 */
export function addRemoteUsage(before: MetricsSnapshot | undefined, usage: RemoteUsage): MetricsSnapshot {
  const base = before ?? {
    model_name: 'remote',
    accumulated_cost: 0,
    accumulated_token_usage: emptyTokenUsage('remote'),
  };
  const tokens = base.accumulated_token_usage;
  const prompt = usage.promptTokens ?? 0;
  const completion = usage.completionTokens ?? 0;
  return {
    ...base,
    accumulated_cost: base.accumulated_cost + (usage.costUsd ?? 0),
    accumulated_token_usage: {
      ...tokens,
      prompt_tokens: tokens.prompt_tokens + prompt,
      completion_tokens: tokens.completion_tokens + completion,
      per_turn_token: prompt + completion,
    },
  };
}
