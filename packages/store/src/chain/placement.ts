import type { ChainLink } from './chain-link.js';
import type { SlotIds } from './chain-slots.js';
import type { ChainProblemKind } from './verify-report.js';

/** Where the event in a slot belongs, judged by ids: reordered, removed or inserted, or undefined when in place. */
export function placementProblem(
  index: number,
  link: ChainLink,
  fileId: string | undefined,
  ids: SlotIds,
): { kind: ChainProblemKind; id: string | undefined; message: string } | undefined {
  if (fileId === undefined) {
    // The claim is intact but its event file is not there. The log's last events may be pending publication
    // (a writer died between claim and file, or a power loss dropped the names of the newest files, whose
    // directory fsync an append does not wait for): a run of them at the end is checked from the claims.
    if (index >= ids.publishedLength) return undefined;
    return { kind: 'removed', id: link.id, message: 'was removed (its event file is gone; its claim remains)' };
  }
  if (link.index === index && link.id === fileId) {
    // Another claim made for this same index, chaining on from it where this one leads nowhere: this event was
    // inserted with a forged claim, and the authentic event was moved on (successors renumbered with claims).
    const rival = ids.rivalOf(index, link.hash);
    if (rival === undefined) return undefined;
    return {
      kind: 'inserted',
      id: fileId,
      message: `is not in the chain: another claim for index ${index} (at ${rival}) is what the chain goes on from`,
    };
  }
  // The claim here was made for another index: when the claim made for this index sits elsewhere, the two
  // traded places (claims moved with their events, or claims alone).
  if (link.index !== index) {
    const belongingAt = ids.slotOfLinkIndex(index);
    if (belongingAt !== undefined && belongingAt !== index) {
      return { kind: 'reordered', id: fileId, message: `was chained at index ${link.index}` };
    }
  }
  const chainedAt = ids.linkIndexOf(fileId);
  if (chainedAt === undefined) return { kind: 'inserted', id: fileId, message: 'is not in the chain' };
  const expectedId = link.index === index ? link.id : undefined;
  const movedTo = expectedId === undefined ? undefined : ids.fileIndexOf(expectedId);
  if (chainedAt !== index && movedTo !== undefined && movedTo !== index) {
    return { kind: 'reordered', id: fileId, message: `was chained at index ${chainedAt}` };
  }
  if (chainedAt > index) {
    return {
      kind: 'removed',
      id: expectedId,
      message: `was removed (event ${fileId}, chained at ${chainedAt}, is here)`,
    };
  }
  return { kind: 'inserted', id: fileId, message: `is a copy or move of event ${chainedAt}` };
}
