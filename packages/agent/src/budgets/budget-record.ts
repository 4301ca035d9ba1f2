import type { FileStore } from '@x/store';
import { z } from 'zod';
import { InvalidBudgetError } from './invalid-budget-error.js';

/**
 * `<conversation dir>/x_budget.json`: the conversation's money budget and why its last run stopped on it. x's own
 * file beside base_state.json (the reference neither reads nor knows it, and base_state.json has no field for
 * a budget): a budget set in one process holds in every later one, replicas included (any FileStore).
 */
export const BUDGET_FILE = 'x_budget.json';

/** Why and where a run stopped on its budget: the figures the ConversationErrorEvent's detail also gives. */
export const budgetStopSchema = z.object({
  /** `limit`: the next call would pass the limit; `unknown_cost`: the model's cost is unknown. */
  reason: z.enum(['limit', 'unknown_cost']),
  /** Which budget: the conversation's, or the run's (`RunOptions.budget`, counted from the run's start). */
  scope: z.enum(['conversation', 'run']),
  limit_usd: z.number(),
  /** Spent under that budget when the run stopped (for `run`, since the run started). */
  spent_usd: z.number(),
  /** The estimated cost of the call that was not made (see `estimateNextCallUsd`). */
  next_call_estimate_usd: z.number(),
  /** The model that was not called. */
  model: z.string(),
  /** Usage ids whose spend is unknown (tokens without a cost), and whether the model itself has no price. */
  unknown_cost_usage_ids: z.array(z.string()),
  /** Id of the ConversationErrorEvent (code `MaxBudgetReached`) that recorded the stop in the log. */
  error_event_id: z.string(),
  /** ISO 8601. */
  recorded_at: z.string(),
});
export type BudgetStop = z.infer<typeof budgetStopSchema>;

export const budgetRecordSchema = z.object({
  version: z.literal(1),
  /** The conversation's budget in dollars; null: none. */
  max_usd: z.number().nonnegative().nullable(),
  allow_unknown_cost: z.boolean(),
  /** Ids of model replies that reported no usage (their cost is unknown), kept so a restart still knows. */
  unknown_cost_responses: z.array(z.string()),
  last_stop: budgetStopSchema.nullable(),
});
export type BudgetRecord = z.infer<typeof budgetRecordSchema>;

export function emptyBudgetRecord(): BudgetRecord {
  return { version: 1, max_usd: null, allow_unknown_cost: false, unknown_cost_responses: [], last_stop: null };
}

/**
 * The record of a conversation's directory; an empty one when there is none. One that does not parse is refused
 * (`InvalidBudgetError` naming it) rather than read as "no budget": a limit must not vanish with a bad write.
 */
export async function readBudgetRecord(store: FileStore, directory: string): Promise<BudgetRecord> {
  const path = `${directory}/${BUDGET_FILE}`;
  if (!(await store.exists(path))) return emptyBudgetRecord();
  const text = await store.read(path);
  let parsed: ReturnType<typeof budgetRecordSchema.safeParse>;
  try {
    parsed = budgetRecordSchema.safeParse(JSON.parse(text));
  } catch (error) {
    throw new InvalidBudgetError(`${store.describe(path)} is not JSON: ${(error as Error).message}`);
  }
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw new InvalidBudgetError(`${store.describe(path)} does not parse: ${field}${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** Writes the record; with `write`, through it (a run's owner fences the write with its lease). */
export async function writeBudgetRecord(
  store: FileStore,
  directory: string,
  record: BudgetRecord,
  write: (path: string, data: string) => Promise<void> = (path, data) => store.write(path, data),
): Promise<void> {
  await write(`${directory}/${BUDGET_FILE}`, JSON.stringify(record));
}
