import { z } from 'zod';
import { InvalidBudgetError } from './invalid-budget-error.js';

/** A money budget: how many dollars a conversation (or one run) may spend on model calls. */
export const budgetSchema = z
  .object({
    /** Dollars, at least 0: the spend (all usage ids, sub-agents included) a model call may not pass. */
    maxUsd: z.number().finite().nonnegative(),
    /**
     * Lets a model whose cost is unknown (no price, or a reply without usage) run under the budget; its spend is
     * then reported as unknown, never counted as $0 silently. Default false: such a call stops the run.
     */
    allowUnknownCost: z.boolean().optional(),
  })
  .strict();
export type Budget = z.infer<typeof budgetSchema>;

/** A budget, or only its dollars. */
export type BudgetInput = Budget | number;

/** The budget `input` stands for; `InvalidBudgetError` (naming `where`) for a negative or non-numeric one. */
export function parseBudget(input: unknown, where = 'budget'): Budget {
  const candidate = typeof input === 'number' ? { maxUsd: input } : input;
  const parsed = budgetSchema.safeParse(candidate);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.length ? `.${issue.path.join('.')}` : '';
  throw new InvalidBudgetError(
    `${where}${path}: ${issue?.message ?? 'invalid'} (got ${JSON.stringify(input)}); a budget is a number of dollars ≥ 0`,
  );
}

/** Dollars from a CLI or query string ("0.50", "$2"); `InvalidBudgetError` for anything else. */
export function parseBudgetUsd(text: string, where = 'budget'): number {
  const trimmed = text.trim().replace(/^\$/, '');
  const value = /^\d+(\.\d+)?$|^\.\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isFinite(value)) {
    throw new InvalidBudgetError(`${where}: '${text}' is not a number of dollars ≥ 0 (e.g. 0.50)`);
  }
  return value;
}
