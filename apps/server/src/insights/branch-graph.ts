import { isTreeArtifactKind } from '@x/events';
import { z } from 'zod';

/** A run of events with no fork in it: the graph's node for a stretch of one branch. */
export const branchSegmentSchema = z.object({
  /** The id of the segment's first event. */
  id: z.string(),
  /** The segment this one continues from (its first event's parent is that segment's last event); null for a root. */
  parent_segment_id: z.string().nullable(),
  first_event_id: z.string(),
  last_event_id: z.string(),
  event_count: z.number().int().min(1),
  /** Up to 80 characters of the segment's first message, or its first event's kind. */
  label: z.string(),
  /** On the path from the root to HEAD (the branch the conversation continues from). */
  active: z.boolean(),
});
export type BranchSegment = z.infer<typeof branchSegmentSchema>;

/** What the graph needs of an event (the effective parent is worked out as the tree does, §7.7). */
export interface GraphEventInput {
  readonly id: string;
  readonly kind: string;
  readonly parent_id?: string | undefined;
  readonly label?: string | undefined;
}

/**
 * The conversation's event tree (§7.7) with every chain of single-child events folded into one segment, so a
 * 10,000-event conversation with two branches is three nodes. A segment ends where an event has other than
 * one child (a branch point or a leaf). State-update artifacts are not tree nodes and are left out; an event
 * without `parent_id` follows the previous node, `"__root__"` starts a new root. One pass, in log order.
 */
export function branchGraph(
  events: readonly GraphEventInput[],
  activeLeafId: string | undefined,
): { segments: BranchSegment[]; segmentOf(eventId: string): string | undefined } {
  const nodes = events.filter((event) => !isTreeArtifactKind(event.kind));
  const known = new Set<string>();
  const parents = new Map<string, string | undefined>();
  const childCount = new Map<string, number>();
  let previous: string | undefined;
  for (const event of nodes) {
    if (known.has(event.id)) continue;
    const written = event.parent_id;
    const parent = written === '__root__' ? undefined : written === undefined ? previous : written;
    const effective = parent !== undefined && known.has(parent) ? parent : undefined;
    parents.set(event.id, effective);
    if (effective !== undefined) childCount.set(effective, (childCount.get(effective) ?? 0) + 1);
    known.add(event.id);
    previous = event.id;
  }

  const segmentOf = new Map<string, BranchSegment>();
  const segments: BranchSegment[] = [];
  // Segments still labelled by their first event's kind: the first message inside replaces it.
  const unlabelled = new Set<BranchSegment>();
  for (const event of nodes) {
    if (segmentOf.has(event.id)) continue;
    const parent = parents.get(event.id);
    const continues = parent !== undefined && childCount.get(parent) === 1 ? segmentOf.get(parent) : undefined;
    if (continues !== undefined) {
      continues.last_event_id = event.id;
      continues.event_count += 1;
      if (unlabelled.has(continues) && event.label !== undefined) {
        continues.label = event.label;
        unlabelled.delete(continues);
      }
      segmentOf.set(event.id, continues);
      continue;
    }
    const segment: BranchSegment = {
      id: event.id,
      parent_segment_id: parent === undefined ? null : (segmentOf.get(parent)?.id ?? null),
      first_event_id: event.id,
      last_event_id: event.id,
      event_count: 1,
      label: event.label ?? `(${event.kind})`,
      active: false,
    };
    if (event.label === undefined) unlabelled.add(segment);
    segments.push(segment);
    segmentOf.set(event.id, segment);
  }

  const byId = new Map(segments.map((segment) => [segment.id, segment]));
  for (let segment = activeLeafId === undefined ? undefined : segmentOf.get(activeLeafId); segment !== undefined; ) {
    if (segment.active) break;
    segment.active = true;
    segment = segment.parent_segment_id === null ? undefined : byId.get(segment.parent_segment_id);
  }
  return { segments, segmentOf: (eventId) => segmentOf.get(eventId)?.id };
}
