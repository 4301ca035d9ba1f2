import type { Agent } from '../agent/agent.js';
import { createAgent } from '../agent/create-agent.js';
import type { Condenser } from '../condenser/condenser.js';
import { condenserFromJSON } from '../condenser/condenser-from-json.js';
import type { LLM } from '../llm/llm.js';
import { createOfflineLLM } from '../llm/offline-llm.js';
import { withUsageId } from '../llm/with-usage-id.js';
import { defaultInheritedVariables } from '../tools/environment/index.js';

/** What an agent factory is told: which case, which run, and whether it is a live run or a replay. */
export interface EvalAgentContext {
  caseId: string;
  /** 1-based. */
  run: number;
  mode: 'live' | 'replay';
  /** For a replay, the condenser the recording's agent used (answering with the recorded summaries). */
  condenser?: Condenser | undefined;
}

/** Builds the agent under test around the model it must use (a live model, or the replay's). */
export type EvalAgentFactory = (llm: LLM, context: EvalAgentContext) => Agent | Promise<Agent>;

/** The agent `x run` builds by default: the built-in tools with the inherited tool environment. */
export const defaultEvalAgent: EvalAgentFactory = (llm, context) =>
  createAgent({
    llm,
    toolEnvironment: { inherit: [...defaultInheritedVariables], set: {} },
    ...(context.condenser === undefined ? {} : { condenser: context.condenser }),
  });

/**
 * The condenser a recording was made with (its base_state.json config), answering its summary requests with
 * the recorded summaries in order, so a replay condenses where the recording did. Undefined when none was set.
 */
export function recordedCondenser(config: unknown, summaries: readonly string[]): Condenser | undefined {
  if (config === undefined || config === null) return undefined;
  const llm = withUsageId(createOfflineLLM({ script: summaries.map((content) => ({ content })) }), 'condenser');
  return condenserFromJSON(config, { llm });
}
