import type { AnyEvent } from '@x/events';
import { z } from 'zod';

/**
 * The state-update key a checkpoint is recorded under. A ConversationStateUpdateEvent accepts any key in the
 * reference (its fold ignores ours), so the record lives in the log without a field the reference would reject.
 */
export const CHECKPOINT_KEY = 'x_workspace_checkpoint';

/** The value of a checkpoint record: the workspace after `event_id` (HEAD when it was taken) is `checkpoint_id`. */
export const checkpointRecordSchema = z.object({
  checkpoint_id: z.string().regex(/^[0-9a-f]{64}$/),
  event_id: z.string().min(1),
});
export type CheckpointRecord = z.infer<typeof checkpointRecordSchema>;

/** The checkpoint record an event carries, if it is one (a malformed record is ignored, as the fold ignores it). */
export function checkpointRecordOf(event: AnyEvent | undefined): CheckpointRecord | undefined {
  if (event?.kind !== 'ConversationStateUpdateEvent' || event.key !== CHECKPOINT_KEY) return undefined;
  const parsed = checkpointRecordSchema.safeParse(event.value);
  return parsed.success ? parsed.data : undefined;
}

/** Checkpoint id per event id, from every record in the log (a later record for the same event wins). */
export function checkpointsByEvent(events: readonly (AnyEvent | undefined)[]): Map<string, string> {
  const byEvent = new Map<string, string>();
  for (const event of events) {
    const record = checkpointRecordOf(event);
    if (record !== undefined) byEvent.set(record.event_id, record.checkpoint_id);
  }
  return byEvent;
}

/** The latest checkpoint at or before the last event of `branch` (root first), with the event it belongs to. */
export function checkpointOnBranch(
  branch: readonly AnyEvent[],
  byEvent: ReadonlyMap<string, string>,
): CheckpointRecord | undefined {
  for (let index = branch.length - 1; index >= 0; index--) {
    const id = branch[index]!.id;
    const checkpoint = byEvent.get(id);
    if (checkpoint !== undefined) return { checkpoint_id: checkpoint, event_id: id };
  }
  return undefined;
}
