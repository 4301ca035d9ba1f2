import { z } from 'zod';

/**
 * The view checkpoint: `<conversation dir>/x_view_checkpoint.json`, a derived file of x's (never read by
 * the reference, never trusted over the event files) that lets a resumed conversation rebuild its View
 * from the events the View holds instead of from the whole log. `entries` name those events by log
 * index, in view order: `[start, end]` is the run of indices start..end-1, and `{ summary_of: i }` is
 * the summary the Condensation at index i inserted.
 */
export const VIEW_CHECKPOINT_FILE = 'x_view_checkpoint.json';

export const viewCheckpointSchema = z.object({
  version: z.literal(1),
  /** Events of the log the view covers (the state's `event_count` when it was written). */
  event_count: z.number().int().nonnegative(),
  /** Id of the event at `event_count - 1`: a log that does not hold it there is not this view's log. */
  last_event_id: z.string().nullable(),
  leaf_event_id: z.string().nullable(),
  head_is_empty: z.boolean(),
  unhandled_condensation_request: z.boolean(),
  entries: z.array(
    z.union([
      z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]),
      z.object({ summary_of: z.number().int().nonnegative() }),
    ]),
  ),
});

export type ViewCheckpoint = z.infer<typeof viewCheckpointSchema>;
