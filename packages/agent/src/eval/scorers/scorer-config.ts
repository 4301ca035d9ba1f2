import { z } from 'zod';
import { costUnder, costUnderConfigSchema } from './cost-under.js';
import { durationUnder, durationUnderConfigSchema } from './duration-under.js';
import { filesWithin, filesWithinConfigSchema } from './files-within.js';
import { finalAnswerConfigSchema, finalAnswerMatches } from './final-answer.js';
import { llmJudge, llmJudgeConfigSchema } from './llm-judge.js';
import { noErrors, noErrorsConfigSchema } from './no-errors.js';
import type { Scorer } from './scorer.js';
import { trajectory, trajectoryConfigSchema } from './trajectory.js';

/** Every scorer a suite can name, by its `type`. */
export const scorerConfigSchemas = {
  'no-errors': noErrorsConfigSchema,
  'cost-under': costUnderConfigSchema,
  'duration-under': durationUnderConfigSchema,
  'files-within': filesWithinConfigSchema,
  'final-answer': finalAnswerConfigSchema,
  trajectory: trajectoryConfigSchema,
  'llm-judge': llmJudgeConfigSchema,
} as const;
export type ScorerType = keyof typeof scorerConfigSchemas;
export const scorerTypes = Object.keys(scorerConfigSchemas) as ScorerType[];

/** A scorer in a suite: `{ type, ...settings }`, or just its type for one without settings (`no-errors`). */
export const scorerConfigSchema = z.preprocess(
  (value) => (typeof value === 'string' ? { type: value } : value),
  z.discriminatedUnion('type', [
    noErrorsConfigSchema,
    costUnderConfigSchema,
    durationUnderConfigSchema,
    filesWithinConfigSchema,
    finalAnswerConfigSchema,
    trajectoryConfigSchema,
    llmJudgeConfigSchema,
  ]),
);
export type ScorerConfig = z.infer<typeof scorerConfigSchema>;

/** The scorer a (validated) config describes. */
export function createScorer(config: ScorerConfig): Scorer {
  switch (config.type) {
    case 'no-errors':
      return noErrors();
    case 'cost-under':
      return costUnder(config.usd);
    case 'duration-under':
      return durationUnder(config.seconds);
    case 'files-within':
      return filesWithin(config.paths);
    case 'final-answer':
      return finalAnswerMatches(config.pattern, config.flags);
    case 'trajectory':
      return trajectory(config);
    case 'llm-judge':
      return llmJudge(config.rubric, config.threshold);
  }
}
