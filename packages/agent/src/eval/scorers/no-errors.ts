import { z } from 'zod';
import { type Scorer, verdict } from './scorer.js';

export const noErrorsConfigSchema = z.strictObject({ type: z.literal('no-errors') });
export type NoErrorsConfig = z.infer<typeof noErrorsConfigSchema>;

/** Passes when the run recorded no agent error, no conversation error, no failed tool and did not end in error. */
export function noErrors(): Scorer {
  return {
    name: 'no-errors',
    async score(run) {
      const [first] = run.errors;
      return verdict(
        'no-errors',
        first === undefined,
        first === undefined ? 'no errors' : `${run.errors.length} error(s), first: ${first}`,
      );
    },
  };
}
