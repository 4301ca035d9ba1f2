import { z } from 'zod';
import { checkLimitOption } from '../eval-options.js';
import { type Scorer, verdict } from './scorer.js';

export const costUnderConfigSchema = z.strictObject({
  type: z.literal('cost-under'),
  /** The limit in dollars; the run passes below it. */
  usd: z.number().positive(),
});
export type CostUnderConfig = z.infer<typeof costUnderConfigSchema>;

/** Passes when the run's model cost (every usage id) is below `usd` dollars. */
export function costUnder(usd: number): Scorer {
  checkLimitOption('usd', usd);
  return {
    name: 'cost-under',
    async score(run) {
      return verdict(
        'cost-under',
        run.costUsd < usd,
        `cost $${run.costUsd.toFixed(6)} ${run.costUsd < usd ? '<' : '>='} $${usd}`,
      );
    },
  };
}
