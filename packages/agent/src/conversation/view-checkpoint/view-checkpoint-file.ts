import { z } from 'zod';

/**
 * The view checkpoint: `<conversation dir>/x_view_checkpoint.json`, a derived file of x's (never read by
 * the reference, never trusted over the event files) that lets a resumed conversation rebuild its View
 * from the events the View holds instead of from the whole log. `entries` name those events by log
 * index, in view order: `[start, end]` is the run of indices start..end-1, and `{ summary_of: i }` is
 * the summary the Condensation at index i inserted.
 */
export const VIEW_CHECKPOINT_FILE = 'x_view_checkpoint.json';

/** `[start, end]`: the run of indices start..end-1; `{ summary_of: i }`: the summary of the Condensation at i. */
export type ViewCheckpointEntry = [number, number] | { summary_of: number };

const isIndex = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function isEntries(value: unknown): value is ViewCheckpointEntry[] {
  if (!Array.isArray(value)) return false;
  for (const entry of value) {
    if (Array.isArray(entry)) {
      if (entry.length !== 2 || !isIndex(entry[0]) || !isIndex(entry[1])) return false;
    } else if (
      entry === null ||
      typeof entry !== 'object' ||
      !isIndex((entry as { summary_of?: unknown }).summary_of)
    ) {
      return false;
    }
  }
  return true;
}

export const viewCheckpointSchema = z.object({
  version: z.literal(1),
  /** Events of the log the view covers (the state's `event_count` when it was written). */
  event_count: z.number().int().nonnegative(),
  /** Id of the event at `event_count - 1`: a log that does not hold it there is not this view's log. */
  last_event_id: z.string().nullable(),
  leaf_event_id: z.string().nullable(),
  head_is_empty: z.boolean(),
  unhandled_condensation_request: z.boolean(),
  // One check over the whole array: a long uncondensed view names tens of thousands of runs, and a zod
  // schema per element cost a resume about as much as reading the view's events.
  entries: z.custom<ViewCheckpointEntry[]>(isEntries, 'entries must be [start, end] runs and { summary_of } objects'),
});

export type ViewCheckpoint = z.infer<typeof viewCheckpointSchema>;
