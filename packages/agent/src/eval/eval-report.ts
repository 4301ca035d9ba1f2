import { z } from 'zod';
import { scoreResultSchema } from './scorers/scorer.js';

/** Where a replay first asked the model something other than the recording did. */
export const evalDivergenceSchema = z.object({
  requestIndex: z.number().int().min(0),
  path: z.string(),
  diff: z.string(),
});

/** One run of a case: a live run, a replay, or a recording scored as it is. */
export const evalRunResultSchema = z.object({
  /** 1-based. */
  run: z.number().int().min(1),
  passed: z.boolean(),
  scores: z.array(scoreResultSchema),
  costUsd: z.number().min(0),
  durationSeconds: z.number().min(0),
  /** The conversation scored (a live run's, kept when a persistence directory was given, or the recording's). */
  conversationId: z.string().optional(),
  location: z.string().optional(),
  /** Set when a replay diverged; the run then failed without scoring. */
  divergence: evalDivergenceSchema.optional(),
  /** Set when the run could not be made (the agent or its model threw). */
  error: z.string().optional(),
});
export type EvalRunResult = z.infer<typeof evalRunResultSchema>;

export const evalCaseResultSchema = z
  .object({
    id: z.string(),
    /** `live` (a task), `replay` (a recording replayed strictly) or `recorded` (a recording scored as it is). */
    mode: z.enum(['live', 'replay', 'recorded']),
    /** At least one: a case that never ran has no pass rate to report or to compare with. */
    runs: z.array(evalRunResultSchema).min(1, 'a case ran at least once'),
    /** Runs that passed every scorer. */
    passed: z.number().int().min(0),
    passRate: z.number().min(0).max(1),
    /** The k of pass@k and pass^k (the number of runs unless asked otherwise, capped at it). */
    k: z.number().int().min(1),
    passAtK: z.number().min(0).max(1),
    passHatK: z.number().min(0).max(1),
    /** Dollars the LLM judge spent on this case. */
    judgeCostUsd: z.number().min(0),
  })
  .superRefine((value, context) => {
    // The counts are what a baseline is compared on: they must be the runs', not a claim beside them.
    const passed = value.runs.filter((run) => run.passed).length;
    if (value.passed !== passed) {
      context.addIssue({ code: 'custom', path: ['passed'], message: `${passed} of the runs passed` });
    } else if (value.runs.length > 0 && Math.abs(value.passRate - passed / value.runs.length) > 1e-9) {
      context.addIssue({
        code: 'custom',
        path: ['passRate'],
        message: `${passed} of ${value.runs.length} runs passed`,
      });
    }
  });
export type EvalCaseResult = z.infer<typeof evalCaseResultSchema>;

/** What the judge's calls used, metered like any other model's: calls, tokens and dollars. */
export const judgeUsageSchema = z.object({
  model: z.string(),
  calls: z.number().int().min(0),
  promptTokens: z.number().int().min(0),
  completionTokens: z.number().int().min(0),
  costUsd: z.number().min(0),
});
export type JudgeUsage = z.infer<typeof judgeUsageSchema>;

/** The result of `runEvalSuite`: `x eval --json` writes it, and a saved baseline is one. */
export const evalReportSchema = z.object({
  suite: z.string(),
  createdAt: z.string(),
  cases: z.array(evalCaseResultSchema),
  judge: judgeUsageSchema.optional(),
});
export type EvalReport = z.infer<typeof evalReportSchema>;
