import { useEffect, useState } from 'preact/hooks';
import { insightApi, type StepUsage } from '../api/insight-api.js';
import { formatCost } from '../views/format.js';
import { formatTokens, niceMax } from './chart-scale.js';

const GAP = 8;
/** A short run still gets a readable plot: bars widen (up to 36 px) to fill this width. */
const MIN_PLOT = 300;
const HEIGHT = 150;
const LEFT = 48;
const RIGHT = 56;
const TOP = 10;
const BOTTOM = 22;

function describe(step: StepUsage): string {
  const cached = step.cache_read_tokens > 0 ? ` (${step.cache_read_tokens} cached)` : '';
  return (
    `Step ${step.step} (${step.model}, ${step.usage_id}): ${step.prompt_tokens} prompt${cached} + ` +
    `${step.completion_tokens} completion tokens, ${formatCost(step.cost)}`
  );
}

function useSteps(conversationId: string, version: unknown) {
  const [state, setState] = useState<{ steps: StepUsage[] | undefined; error: string | undefined }>({
    steps: undefined,
    error: undefined,
  });
  useEffect(() => {
    let cancelled = false;
    insightApi.steps(conversationId).then(
      (answer) => !cancelled && setState({ steps: answer.steps, error: undefined }),
      (caught: unknown) => !cancelled && setState((current) => ({ ...current, error: (caught as Error).message })),
    );
    return () => {
      cancelled = true;
    };
  }, [conversationId, version]);
  return state;
}

/**
 * Tokens and cost per LLM response, as an inline SVG: one stacked bar per response (prompt tokens below,
 * completion tokens above, left axis) and the response's cost as a point on a line (right axis). Every step
 * carries its values in a tooltip (`<title>`) and in data attributes.
 */
export function StepChart({ conversationId, version }: { conversationId: string; version: unknown }) {
  const { steps, error } = useSteps(conversationId, version);
  if (error !== undefined) return <p class="error">Chart unavailable: {error}</p>;
  if (steps === undefined) return <p class="muted">Loading usage…</p>;
  if (steps.length === 0) return <p class="muted">No LLM responses yet.</p>;
  const tokenMax = niceMax(Math.max(...steps.map((step) => step.prompt_tokens + step.completion_tokens)));
  const costMax = niceMax(Math.max(...steps.map((step) => step.cost)));
  const bar = Math.max(10, Math.min(36, Math.floor(MIN_PLOT / steps.length) - GAP));
  const plotWidth = steps.length * (bar + GAP) + GAP;
  const width = LEFT + plotWidth + RIGHT;
  const height = TOP + HEIGHT + BOTTOM;
  const yTokens = (value: number) => TOP + HEIGHT - (value / tokenMax) * HEIGHT;
  const yCost = (value: number) => TOP + HEIGHT - (value / costMax) * HEIGHT;
  const xOf = (index: number) => LEFT + GAP + index * (bar + GAP);
  const line = steps.map((step, index) => `${xOf(index) + bar / 2},${yCost(step.cost).toFixed(1)}`).join(' ');
  return (
    <figure class="step-chart">
      <svg
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label="Tokens and cost per LLM response"
      >
        <line class="axis" x1={LEFT} y1={TOP} x2={LEFT} y2={TOP + HEIGHT} />
        <line class="axis" x1={LEFT} y1={TOP + HEIGHT} x2={LEFT + plotWidth} y2={TOP + HEIGHT} />
        <line class="axis" x1={LEFT + plotWidth} y1={TOP} x2={LEFT + plotWidth} y2={TOP + HEIGHT} />
        <text class="tick" x={LEFT - 4} y={TOP + 4} text-anchor="end">
          {formatTokens(tokenMax)}
        </text>
        <text class="tick" x={LEFT - 4} y={TOP + HEIGHT} text-anchor="end">
          0
        </text>
        <text class="tick cost" x={LEFT + plotWidth + 4} y={TOP + 4}>
          {formatCost(costMax)}
        </text>
        {steps.map((step, index) => {
          const x = xOf(index);
          const promptTop = yTokens(step.prompt_tokens);
          const totalTop = yTokens(step.prompt_tokens + step.completion_tokens);
          return (
            <g
              key={`${step.usage_id}:${step.response_id}:${step.step}`}
              class="step"
              data-step={step.step}
              data-prompt-tokens={step.prompt_tokens}
              data-completion-tokens={step.completion_tokens}
              data-cost={step.cost}
              data-event-id={step.event_id}
              tabIndex={0}
            >
              <title>{describe(step)}</title>
              <rect class="hit" x={x - GAP / 2} y={TOP} width={bar + GAP} height={HEIGHT} />
              <rect class="prompt" x={x} y={promptTop} width={bar} height={TOP + HEIGHT - promptTop} />
              <rect class="completion" x={x} y={totalTop} width={bar} height={promptTop - totalTop} />
              <text class="tick" x={x + bar / 2} y={TOP + HEIGHT + 14} text-anchor="middle">
                {step.step}
              </text>
            </g>
          );
        })}
        <polyline class="cost-line" points={line} />
        {steps.map((step, index) => (
          <circle key={`cost-${step.step}`} class="cost-point" cx={xOf(index) + bar / 2} cy={yCost(step.cost)} r={3.5}>
            <title>{describe(step)}</title>
          </circle>
        ))}
      </svg>
      <figcaption>
        <span class="swatch prompt" /> prompt tokens <span class="swatch completion" /> completion tokens{' '}
        <span class="swatch cost" /> cost per response
      </figcaption>
    </figure>
  );
}
