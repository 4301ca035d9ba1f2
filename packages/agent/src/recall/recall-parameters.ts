import { z } from 'zod';

/** The most events one recall returns, whatever `max_results` asks for. */
export const MAX_RECALL_RESULTS = 50;

/**
 * What the model may ask: exactly one of `event_ids`, `start_index`/`end_index` or `query`. Indices are positions
 * in the conversation's event log (its active branch), as `x events` numbers them.
 */
export const recallParameters = z.object({
  event_ids: z
    .array(z.string())
    .min(1)
    .max(MAX_RECALL_RESULTS)
    .optional()
    .describe('Re-read these events by id (e.g. ids listed in a summary or a previous recall).'),
  start_index: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Re-read the events from this log index (inclusive); use with end_index.'),
  end_index: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Last log index to re-read (inclusive); defaults to start_index + max_results - 1.'),
  query: z
    .string()
    .min(1)
    .optional()
    .describe('Case-insensitive text to search for (every word must occur in the event).'),
  include_visible: z
    .boolean()
    .optional()
    .describe('Search events still in your context too (default: only the events condensation forgot).'),
  max_results: z
    .number()
    .int()
    .min(1)
    .max(MAX_RECALL_RESULTS)
    .optional()
    .describe(`How many events to return at most (default 10, at most ${MAX_RECALL_RESULTS}).`),
});

export type RecallParameters = z.output<typeof recallParameters>;

/** A validated recall request: one mode, with its bounds resolved. */
export type RecallRequest =
  | { mode: 'ids'; ids: string[] }
  | { mode: 'range'; start: number; end: number | undefined }
  | { mode: 'query'; words: string[]; includeVisible: boolean };
