import { StepChart } from '../chart/step-chart.js';
import { TreeGraph } from '../graph/tree-graph.js';

/**
 * The conversation's pictures, side by side under the header: its tree (branches, forks, sub-agents) and
 * tokens and cost per LLM response. `version` changes when they should be fetched again.
 */
export function InsightsPanel({ conversationId, version }: { conversationId: string; version: unknown }) {
  return (
    <details class="insights" open>
      <summary>Tree and usage per step</summary>
      <div class="insights-row">
        <section class="insight" aria-label="Conversation tree">
          <h2>Tree</h2>
          <TreeGraph conversationId={conversationId} version={version} />
        </section>
        <section class="insight" aria-label="Tokens and cost per step">
          <h2>Tokens and cost per step</h2>
          <StepChart conversationId={conversationId} version={version} />
        </section>
      </div>
    </details>
  );
}
