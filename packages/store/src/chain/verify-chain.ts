import type { KeyObject } from 'node:crypto';
import { parseEventFileName } from '../event-log/file-names.js';
import { logDirectory } from '../event-log/log-directory.js';
import { isUnfinishedCopy } from '../event-log/unfinished-file.js';
import type { FileStore } from '../file-store.js';
import { computeChainHash } from './chain-link.js';
import { type ChainAnchor, chainAnchorPath, readChainRecords } from './chain-records.js';
import { claimedBytes, collectSlots, indexIds, type Slot } from './chain-slots.js';
import { checkHeads, type KnownHead, strippedChainStart } from './head-checks.js';
import { placementProblem } from './placement.js';
import { readBytes } from './read-bytes.js';
import { isHeadSignatureValid, readSignedHead } from './signed-head.js';
import { findPackMismatch } from './verify-packs.js';
import type { ChainProblem, ChainProblemKind, ChainReport, SignatureStatus } from './verify-report.js';

/** Options for `verifyEventChain`. */
export interface VerifyChainOptions {
  /** Directory of the event files inside the store. Default `'events'`. */
  dir?: string;
  /** The Ed25519 public key the signed head must verify against. Without it the signature is not checked. */
  publicKey?: KeyObject;
  /**
   * The head a live writer knows (its length, and its last link hash when it holds it), checked like a head
   * record: `EventLog.verifyChain` passes its own, so a log cut short under a running process is caught before
   * any head record is written.
   */
  knownHead?: KnownHead;
}

/**
 * Checks the hash chain of the event log in `store` (see `ChainLink`) against the exact bytes of every
 * event file, and reports the first altered, removed, reordered or inserted event by index and id (or a
 * signed head that does not match). Events before the first chained one are unchained (written before
 * chaining, or by the reference), which is not a problem. Reads every event file and claim once.
 */
export async function verifyEventChain(store: FileStore, options: VerifyChainOptions = {}): Promise<ChainReport> {
  const dir = logDirectory(options.dir);
  const [{ slots, segmentDamage }, records] = await Promise.all([
    collectSlots(store, dir),
    readChainRecords(store, dir),
  ]);
  const { anchor } = records;
  const length = slots.length;
  // The hashes the heads name count as successors too: the last authentic event is referenced by them.
  const ids = indexIds(slots, [records.head?.hash, options.knownHead?.hash]);
  let chainedFrom: number | null = null;
  let prevHash: string | null = null;
  // Events checked from their claims: files not written yet at the log's end, or left unfinished by a power loss.
  const fromClaims: number[] = [];
  let recordedLength: number | null = null;
  const result = (problem: ChainProblem | undefined, signature: SignatureStatus, signedLength: number | null) => ({
    status: problem ? ('tampered' as const) : chainedFrom === null ? ('unchained' as const) : ('verified' as const),
    length,
    chainedFrom,
    headHash: prevHash,
    signature,
    signedLength,
    recordedLength,
    problem,
    fromClaims,
  });
  if (records.problem !== undefined) {
    return result({ kind: 'altered', index: -1, id: undefined, message: records.problem }, 'not-checked', null);
  }
  const damaged = (damage: NonNullable<typeof segmentDamage>, slot: Slot | undefined) => {
    const file = slot?.files[0];
    const id = file === undefined ? undefined : parseEventFileName(file)!.id;
    return result({ kind: 'damaged', index: damage.index, id, message: damage.error.message }, 'not-checked', null);
  };
  const hashes: (string | undefined)[] = [];
  // Every event file in one bulk read, hashed as the bytes it holds.
  const bytes = await readBytes(
    store,
    slots.map((slot) => slot.files[0]),
  );
  for (let index = 0; index < length; index++) {
    const slot = slots[index]!;
    const claim = slot.claim;
    const fail = (kind: ChainProblemKind, id: string | undefined, message: string) =>
      result({ kind, index, id, message: `event ${index}${id ? ` (${id})` : ''} ${message}` }, 'not-checked', null);
    // The segment's records stop at damage: the event files from there on are derived from records it lost, so it
    // is the damage that is named, not files "not in the chain".
    if (index === segmentDamage?.index) return damaged(segmentDamage, slot);
    if (claim !== undefined && 'error' in claim)
      return fail('altered', undefined, `has a damaged slot claim: ${claim.error}`);
    const link = claim?.link;
    const file = slot.files[0];
    const fileId = file === undefined ? undefined : parseEventFileName(file)!.id;
    if (slot.files.length > 1) {
      return fail('inserted', parseEventFileName(slot.files[1]!)!.id, `has a second event file, ${slot.files[1]}`);
    }
    if (link === undefined) {
      if (chainedFrom === null && !isAnchoredAt(anchor, index)) {
        // No link to check here (written before chaining, or by the reference), but a hole in the indices is an
        // event removed: every reader stops at it, so the events after it are lost to them.
        if (file === undefined && claim === undefined) {
          return fail(
            'removed',
            undefined,
            `is missing (no event file): the ${length - index - 1} after it are not read`,
          );
        }
        continue;
      }
      if (chainedFrom === null) {
        const missing = file === undefined ? 'is missing (no event file and no claim)' : 'has no chain link';
        return fail(
          'removed',
          fileId,
          `${missing}, but the log is chained from index ${anchor!.chainedFrom} (${store.describe(chainAnchorPath(dir))}): its slot claim was removed`,
        );
      }
      if (file === undefined) return fail('removed', undefined, 'is missing (no event file and no claim)');
      return fail('inserted', fileId, 'is not in the chain (it has no chain link)');
    }
    if (chainedFrom === null) {
      chainedFrom = index;
      if (link.prev !== null && index > 0) {
        // The links before this one were stripped (a log without an anchor: written before anchors). Where the
        // chain really started is where a chain recomputed from the event files reproduces this link's prev.
        const start = strippedChainStart(index, link.prev, (at) => bytes[at]);
        return result(
          {
            kind: 'removed',
            index: start,
            id: ids.fileAt(start),
            message:
              start === index - 1
                ? `event ${start}'s chain link is missing: event ${index} chains to it`
                : `the chain links of events ${start}…${index - 1} are missing: event ${index} chains to a chain that starts at ${start}`,
          },
          'not-checked',
          null,
        );
      }
    }
    const problem = placementProblem(index, link, fileId, ids);
    if (problem) return fail(problem.kind, problem.id, problem.message);
    const read = bytes[index];
    // A committed claim whose file is not written yet (a writer died mid-append) is checked from the claim.
    const claimed = async () => (claim === undefined || 'error' in claim ? undefined : claimedBytes(store, claim));
    let eventJson = file === undefined ? await claimed() : read instanceof Uint8Array ? read : undefined;
    if (file === undefined) fromClaims.push(index);
    if (eventJson === undefined) return fail('removed', link.id, 'cannot be read');
    if (computeChainHash(index, link.prev, eventJson) !== link.hash) {
      // A file a power loss left unfinished (empty or cut short: it is written without fsync once its claim
      // is durable) is checked from its claim, as readers serve it, and rewritten by the next read.
      const intended = await claimed();
      const unfinished =
        intended !== undefined &&
        isUnfinishedCopy(eventJson, intended) &&
        computeChainHash(index, link.prev, intended) === link.hash;
      if (!unfinished) {
        return fail('altered', fileId ?? link.id, 'does not match its chain link (its bytes were changed)');
      }
      eventJson = intended;
      bytes[index] = intended;
      fromClaims.push(index);
    }
    if (link.prev !== prevHash && index > chainedFrom) {
      // Either the event before was replaced (its new link is consistent, this one still names its old hash), or
      // this event's own link was forged with another `prev`: then what follows it (the next link, else a head)
      // no longer chains to this link either, while after a replaced predecessor it still does.
      const follower = slots[index + 1]?.claim;
      const next =
        follower !== undefined && !('error' in follower) && follower.link?.index === index + 1
          ? follower.link.prev
          : ((records.head?.length === index + 1 ? records.head.hash : undefined) ??
            (options.knownHead?.length === index + 1 ? options.knownHead.hash : undefined));
      if (next === undefined) {
        // The last event, and no head to tell: the link that does not hold is this event's own, so it is named (as
        // the PostgreSQL log names its last row), with both readings.
        return fail(
          'altered',
          fileId ?? link.id,
          `chains to a hash event ${index - 1} does not have (its own link was forged, or event ${index - 1} was replaced: no later event or head tells which)`,
        );
      }
      if (next !== link.hash) {
        return fail(
          'altered',
          fileId ?? link.id,
          `has a forged chain link: it chains to a hash event ${index - 1} does not have`,
        );
      }
      return result(
        {
          kind: 'altered',
          index: index - 1,
          id: ids.fileAt(index - 1),
          message: `event ${index - 1} was replaced: event ${index} chains to a different hash`,
        },
        'not-checked',
        null,
      );
    }
    prevHash = link.hash;
    hashes[index] = link.hash;
  }
  // Damage that took the log's last records, whose event files are not there either.
  if (segmentDamage !== undefined) return damaged(segmentDamage, undefined);
  // What readers serve from the packed read cache must be these bytes too.
  const mismatch = await findPackMismatch(
    store,
    dir,
    slots.map((slot) => slot.files[0]),
    (index) => {
      const read = bytes[index];
      return read instanceof Uint8Array ? read : undefined;
    },
  );
  if (mismatch) return result({ kind: 'altered', ...mismatch }, 'not-checked', null);
  const headProblem = checkHeads(records.head, options.knownHead, hashes, length, (path) => store.describe(path), dir);
  recordedLength = headProblem.recordedLength;
  if (headProblem.problem) return result(headProblem.problem, 'not-checked', null);
  if (!options.publicKey) return result(undefined, 'not-checked', null);
  return checkSignature(store, dir, options.publicKey, hashes, length, result);
}

async function checkSignature(
  store: FileStore,
  dir: string,
  publicKey: KeyObject,
  hashes: (string | undefined)[],
  length: number,
  result: (problem: ChainProblem | undefined, signature: SignatureStatus, signedLength: number | null) => ChainReport,
): Promise<ChainReport> {
  const head = await readSignedHead(store, dir);
  const problem = (index: number, message: string): ChainProblem => ({
    kind: 'signature',
    index,
    id: undefined,
    message,
  });
  if (head === undefined) return result(problem(-1, 'no signed chain head was found'), 'absent', null);
  if (head === 'unreadable') return result(problem(-1, 'the signed chain head cannot be read'), 'invalid', null);
  if (!isHeadSignatureValid(head, publicKey)) {
    return result(problem(head.length, 'the signed chain head does not match the public key'), 'invalid', null);
  }
  if (head.length > length) {
    return result(
      {
        kind: 'removed',
        index: length,
        id: undefined,
        message: `events ${length}…${head.length - 1} were signed but are gone`,
      },
      'valid',
      head.length,
    );
  }
  if (head.length === 0 || hashes[head.length - 1] !== head.hash) {
    return result(
      problem(head.length, `the signed head (${head.length} events) does not match the chain`),
      'invalid',
      null,
    );
  }
  return result(undefined, 'valid', head.length);
}

/** Whether the anchor says the chain covers `index` (so an event there without a link lost its claim). */
function isAnchoredAt(anchor: ChainAnchor | undefined, index: number): boolean {
  return anchor !== undefined && index >= anchor.chainedFrom;
}
