import type { ConversationInfo } from '../api/types.js';
import { formatCost } from './format.js';

/** Tokens and cost per usage id (the LLMs a conversation used: agent, condenser, title, …). */
export function StatsPanel({ info }: { info: ConversationInfo }) {
  const usage = Object.entries(info.stats?.usage_to_metrics ?? {});
  if (usage.length === 0) return null;
  return (
    <details class="stats">
      <summary>Usage</summary>
      <table>
        <thead>
          <tr>
            <th>Usage id</th>
            <th>Model</th>
            <th>Prompt</th>
            <th>Completion</th>
            <th>Cache read</th>
            <th>Reasoning</th>
            <th>Cost</th>
          </tr>
        </thead>
        <tbody>
          {usage.map(([id, metrics]) => {
            const tokens = metrics.accumulated_token_usage ?? {};
            return (
              <tr key={id}>
                <td>{id}</td>
                <td>{metrics.model_name ?? ''}</td>
                <td>{tokens.prompt_tokens ?? 0}</td>
                <td>{tokens.completion_tokens ?? 0}</td>
                <td>{tokens.cache_read_tokens ?? 0}</td>
                <td>{tokens.reasoning_tokens ?? 0}</td>
                <td>{formatCost(metrics.accumulated_cost ?? 0)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </details>
  );
}
