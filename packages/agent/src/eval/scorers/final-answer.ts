import { z } from 'zod';
import { type Scorer, verdict } from './scorer.js';

export const finalAnswerConfigSchema = z
  .strictObject({
    type: z.literal('final-answer'),
    /** A regular expression the final answer must match (searched, not anchored). */
    pattern: z.string().min(1),
    /** Regular expression flags, e.g. `i`. */
    flags: z
      .string()
      .regex(/^[dgimsuvy]*$/, 'flags are letters among d g i m s u v y')
      .optional(),
  })
  .superRefine((config, context) => {
    try {
      new RegExp(config.pattern, config.flags);
    } catch (error) {
      context.addIssue({ code: 'custom', path: ['pattern'], message: (error as Error).message });
    }
  });
export type FinalAnswerConfig = z.infer<typeof finalAnswerConfigSchema>;

function excerpt(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
}

/** Passes when the agent's final answer matches `pattern`. */
export function finalAnswerMatches(pattern: string, flags?: string): Scorer {
  const expression = new RegExp(pattern, flags);
  return {
    name: 'final-answer',
    async score(run) {
      // A `g` or `y` expression searches from where its last match ended: one scorer grades every run of a case.
      expression.lastIndex = 0;
      const passed = expression.test(run.finalAnswer);
      return verdict(
        'final-answer',
        passed,
        `final answer ${excerpt(run.finalAnswer)} ${passed ? 'matches' : 'does not match'} /${pattern}/${flags ?? ''}`,
      );
    },
  };
}
