import { z } from 'zod';
import { checkLimitOption } from '../eval-options.js';
import { type Scorer, verdict } from './scorer.js';

export const durationUnderConfigSchema = z.strictObject({
  type: z.literal('duration-under'),
  /** The limit in seconds, first event to last; the run passes below it. */
  seconds: z.number().positive(),
});
export type DurationUnderConfig = z.infer<typeof durationUnderConfigSchema>;

/** Passes when the run took less than `seconds` from its first event to its last. */
export function durationUnder(seconds: number): Scorer {
  checkLimitOption('seconds', seconds);
  return {
    name: 'duration-under',
    async score(run) {
      const took = run.durationSeconds;
      return verdict(
        'duration-under',
        took < seconds,
        `took ${took.toFixed(3)}s ${took < seconds ? '<' : '>='} ${seconds}s`,
      );
    },
  };
}
