import { z } from 'zod';
import type { LLM, LLMResponse } from '../../llm/llm.js';
import type { EvalRun } from '../eval-run.js';

/** One scorer's verdict on one run. */
export const scoreResultSchema = z.object({
  /** The scorer, as the suite names it (e.g. `cost-under`). */
  scorer: z.string(),
  passed: z.boolean(),
  /** 0 to 1: 1 or 0 for yes/no scorers, F1 for trajectories, the judge's grade for the judge. */
  score: z.number().min(0).max(1),
  /** Why, in a line: the measured value against the limit, the first mismatch, the judge's reason. */
  detail: z.string(),
  /** Dollars the scorer itself spent (the LLM judge). */
  costUsd: z.number().min(0).optional(),
});
export type ScoreResult = z.infer<typeof scoreResultSchema>;

/** What a scorer may use besides the run. */
export interface ScorerContext {
  /** The model the LLM judge asks; without one the judge fails with a result that says so. */
  judge?: LLM | undefined;
  /** Called with every judge response, so its usage and cost are metered with the rest. */
  onJudgeResponse?: ((response: LLMResponse) => void) | undefined;
  /**
   * How long one scorer may take (`scoreRun`; default 300 s): one that takes longer fails and its `signal` is aborted.
   */
  scorerTimeoutSeconds?: number | undefined;
  /** Aborted when the scorer's time is up (or the caller's signal aborts): a scorer doing I/O passes it on. */
  signal?: AbortSignal | undefined;
}

/** Grades one run. Scorers never throw for a bad run: they return `passed: false` and say why. */
export interface Scorer {
  readonly name: string;
  score(run: EvalRun, context: ScorerContext): Promise<ScoreResult>;
}

/** A yes/no result. */
export function verdict(scorer: string, passed: boolean, detail: string): ScoreResult {
  return { scorer, passed, score: passed ? 1 : 0, detail };
}
