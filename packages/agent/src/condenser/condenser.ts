import type { Condensation, View } from '@x/events';
import type { LLM, LLMResponse } from '../llm/llm.js';

export interface CondenserContext {
  /** The agent's LLM: its `maxInputTokens`, when it exposes one, bounds the view's token count. */
  llm?: LLM;
  /** Cancels a summarizing call; an aborted call is re-thrown rather than reported as "no condensation". */
  signal?: AbortSignal;
  /** Records the metrics of a model call the condenser makes (under that LLM's usage id). */
  recordResponse?: (llm: LLM, response: LLMResponse) => Promise<void>;
}

/**
 * Decides what the LLM sees (reference §6.4): given the current View, either returns a View to send
 * or a Condensation for the caller to append to the log (the step then ends without an LLM call).
 * A condenser must not change the view it receives.
 */
export interface Condenser {
  condense(view: View, context?: CondenserContext): Promise<View | Condensation>;
  /** True when the condenser acts on CondensationRequest (the agent then asks for one on context overflow). */
  handlesCondensationRequests(): boolean;
  /** The reference JSON of the configuration, e.g. `{ kind: 'NoOpCondenser' }`. */
  toJSON(): Record<string, unknown>;
  /**
   * The usage ids of the models the condenser calls, whose spending the conversation records under them (none for a
   * condenser that calls no model). No tool may record its own spending under one of them.
   */
  usageIds?(): readonly string[];
}

/** True for a Condensation event (as opposed to a View) returned by `condense`. */
export function isCondensation(result: View | Condensation): result is Condensation {
  return (result as { kind?: unknown }).kind === 'Condensation';
}
