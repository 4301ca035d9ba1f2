import { checkLimitOption } from './eval-options.js';
import type { EvalRun } from './eval-run.js';
import { type ScoreResult, type Scorer, type ScorerContext, scoreResultSchema } from './scorers/scorer.js';

/** How long a scorer may take by default (`ScorerContext.scorerTimeoutSeconds`): an LLM judge's slow reply fits. */
export const DEFAULT_SCORER_TIMEOUT_SECONDS = 300;

/**
 * Runs every scorer on one run, in order. A scorer never stops or passes the suite by accident: one that throws
 * (an Error or anything else, before or after its promise), does not answer within `context.scorerTimeoutSeconds`
 * (its `signal` is then aborted, which ends the judge's request) or answers something that is not a score result
 * (`passed` not a boolean, a score outside 0..1 or NaN) fails with a detail saying so, and the next scorer runs.
 * `InvalidEvalOptionError` for a time limit that is not a number above 0.
 */
export async function scoreRun(
  run: EvalRun,
  scorers: readonly Scorer[],
  context: ScorerContext = {},
): Promise<ScoreResult[]> {
  const seconds = context.scorerTimeoutSeconds ?? DEFAULT_SCORER_TIMEOUT_SECONDS;
  checkLimitOption('scorerTimeoutSeconds', seconds);
  const results: ScoreResult[] = [];
  for (const scorer of scorers) {
    try {
      results.push(await scoreOnce(scorer, run, context, seconds));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      results.push({ scorer: scorer.name, passed: false, score: 0, detail: `the scorer failed: ${message}` });
    }
  }
  return results;
}

async function scoreOnce(scorer: Scorer, run: EvalRun, context: ScorerContext, seconds: number): Promise<ScoreResult> {
  const controller = new AbortController();
  const signal =
    context.signal === undefined ? controller.signal : AbortSignal.any([context.signal, controller.signal]);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`scorer ${scorer.name} timed out`));
      reject(new Error(`it did not answer within ${seconds} s`));
    }, seconds * 1000);
  });
  try {
    const answered = await Promise.race([
      Promise.resolve().then(() => scorer.score(run, { ...context, signal })),
      timeout,
    ]);
    const parsed = scoreResultSchema.safeParse(answered);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.length ? `${issue.path.join('.')}: ` : '';
      throw new Error(`it returned no score result (${field}${issue?.message ?? 'invalid'})`);
    }
    return parsed.data;
  } finally {
    clearTimeout(timer);
  }
}
