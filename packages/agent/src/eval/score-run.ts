import type { EvalRun } from './eval-run.js';
import type { ScoreResult, Scorer, ScorerContext } from './scorers/scorer.js';

/** Runs every scorer on one run, in order; a scorer that throws fails with its message instead of the suite. */
export async function scoreRun(
  run: EvalRun,
  scorers: readonly Scorer[],
  context: ScorerContext = {},
): Promise<ScoreResult[]> {
  const results: ScoreResult[] = [];
  for (const scorer of scorers) {
    try {
      results.push(await scorer.score(run, context));
    } catch (error) {
      results.push({
        scorer: scorer.name,
        passed: false,
        score: 0,
        detail: `the scorer failed: ${(error as Error).message}`,
      });
    }
  }
  return results;
}
