import type { KeyObject } from 'node:crypto';
import { parseEventFileName } from '../event-log/file-names.js';
import { isUnfinishedCopy } from '../event-log/unfinished-file.js';
import type { FileStore } from '../file-store.js';
import { type ChainLink, computeChainHash, parseSlotClaimBytes } from './chain-link.js';
import { type ChainAnchor, chainAnchorPath, headRecordPath, readChainRecords } from './chain-records.js';
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
  knownHead?: { readonly length: number; readonly hash: string | undefined };
}

/** What verification needs of a slot claim: its link (none for claims written before chaining) and event bytes. */
interface ClaimParts {
  readonly link: ChainLink | undefined;
  readonly json: Uint8Array;
}

/** One index as found in the store: its event file(s) and its slot claim. */
interface Slot {
  readonly files: string[];
  /** The claim, `undefined` when absent, or the error that reading it gave. */
  claim?: ClaimParts | { error: string };
}

const SLOT_NAME = /(?:^|\/)(\d{5,})\.json$/;

/**
 * Checks the hash chain of the event log in `store` (see `ChainLink`) against the exact bytes of every
 * event file, and reports the first altered, removed, reordered or inserted event by index and id (or a
 * signed head that does not match). Events before the first chained one are unchained (written before
 * chaining, or by the reference), which is not a problem. Reads every event file and claim once.
 */
export async function verifyEventChain(store: FileStore, options: VerifyChainOptions = {}): Promise<ChainReport> {
  const dir = options.dir ?? 'events';
  const [slots, records] = await Promise.all([collectSlots(store, dir), readChainRecords(store, dir)]);
  const { anchor } = records;
  const length = slots.length;
  const ids = indexIds(slots);
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
    if (claim !== undefined && 'error' in claim)
      return fail('altered', undefined, `has a damaged slot claim: ${claim.error}`);
    const link = claim?.link;
    const file = slot.files[0];
    const fileId = file === undefined ? undefined : parseEventFileName(file)!.id;
    if (slot.files.length > 1) {
      return fail('inserted', parseEventFileName(slot.files[1]!)!.id, `has a second event file, ${slot.files[1]}`);
    }
    if (link === undefined) {
      if (chainedFrom === null && !isAnchoredAt(anchor, index)) continue;
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
        return result(
          {
            kind: 'removed',
            index: index - 1,
            id: ids.fileAt(index - 1),
            message: `event ${index - 1}'s chain link is missing: event ${index} chains to it`,
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
    let eventJson = file === undefined ? claim!.json : read instanceof Uint8Array ? read : undefined;
    if (file === undefined) fromClaims.push(index);
    if (eventJson === undefined) return fail('removed', link.id, 'cannot be read');
    if (computeChainHash(index, link.prev, eventJson) !== link.hash) {
      // A file a power loss left unfinished (empty or cut short: it is written without fsync once its claim
      // is durable) is checked from its claim, as readers serve it, and rewritten by the next read.
      const intended = claim?.json;
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

/**
 * Checks the chain against the longest head record and the head a live writer knows: fewer events than a head
 * says means the log was cut short (first missing index: the log's length); a head whose last link hash differs
 * from the chain's at that index means the chain was rewritten up to there (the first rewritten event cannot be
 * told without the original links, so the head's last index is named).
 */
function checkHeads(
  recorded: { length: number; hash: string; id: string } | undefined,
  known: VerifyChainOptions['knownHead'],
  hashes: readonly (string | undefined)[],
  length: number,
  describe: (path: string) => string,
  dir: string,
): { recordedLength: number | null; problem: ChainProblem | undefined } {
  const recordedLength = recorded?.length ?? null;
  const heads = [
    ...(recorded === undefined ? [] : [{ ...recorded, source: describe(headRecordPath(dir, recorded.length)) }]),
    ...(known === undefined || known.length === 0 ? [] : [{ ...known, id: undefined, source: 'the open log' }]),
  ];
  for (const head of heads) {
    if (head.length > length) {
      const gone = head.length - 1 === length ? `event ${length} is` : `events ${length}…${head.length - 1} are`;
      return {
        recordedLength,
        problem: {
          kind: 'removed',
          index: length,
          id: undefined,
          message: `${gone} gone: the log had ${head.length} events (${head.source}) and was cut short`,
        },
      };
    }
  }
  for (const head of heads) {
    if (head.hash === undefined || hashes[head.length - 1] === head.hash) continue;
    const index = head.length - 1;
    return {
      recordedLength,
      problem: {
        kind: 'altered',
        index,
        id: head.id,
        message: `event ${index}${head.id ? ` (${head.id})` : ''} was rewritten with a new chain link: it differs from the head ${head.source} recorded`,
      },
    };
  }
  return { recordedLength, problem: undefined };
}

/** Where the event in a slot belongs, judged by ids: reordered, removed or inserted, or undefined when in place. */
function placementProblem(
  index: number,
  link: ChainLink,
  fileId: string | undefined,
  ids: ReturnType<typeof indexIds>,
): { kind: ChainProblemKind; id: string | undefined; message: string } | undefined {
  if (fileId === undefined) {
    // The claim is intact but its event file is not there. The log's last events may be pending publication
    // (a writer died between claim and file, or a power loss dropped the names of the newest files, whose
    // directory fsync an append does not wait for): a run of them at the end is checked from the claims.
    if (index >= ids.publishedLength) return undefined;
    return { kind: 'removed', id: link.id, message: 'was removed (its event file is gone; its claim remains)' };
  }
  if (link.index === index && link.id === fileId) return undefined;
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

function indexIds(slots: Slot[]) {
  const byLinkId = new Map<string, number>();
  const byFileId = new Map<string, number>();
  const byLinkIndex = new Map<number, number>();
  slots.forEach((slot, index) => {
    const claim = slot.claim;
    if (claim && !('error' in claim) && claim.link && !byLinkId.has(claim.link.id)) {
      byLinkId.set(claim.link.id, claim.link.index);
    }
    if (claim && !('error' in claim) && claim.link && !byLinkIndex.has(claim.link.index)) {
      byLinkIndex.set(claim.link.index, index);
    }
    const file = slot.files[0];
    if (file) {
      const id = parseEventFileName(file)!.id;
      if (!byFileId.has(id)) byFileId.set(id, index);
    }
  });
  let publishedLength = slots.length;
  while (publishedLength > 0 && slots[publishedLength - 1]!.files.length === 0) publishedLength--;
  return {
    length: slots.length,
    /** The end of the log without its trailing run of claims whose files are not written yet. */
    publishedLength,
    linkIndexOf: (id: string) => byLinkId.get(id),
    /** The slot holding the claim that was made for `index`. */
    slotOfLinkIndex: (index: number) => byLinkIndex.get(index),
    fileIndexOf: (id: string) => byFileId.get(id),
    fileAt: (index: number) => {
      const file = slots[index]?.files[0];
      return file ? parseEventFileName(file)!.id : undefined;
    },
  };
}

/** Event files and claims by index, up to the highest index either has. */
async function collectSlots(store: FileStore, dir: string): Promise<Slot[]> {
  const [listing, claimListing] = await Promise.all([store.list(dir), store.list(`${dir}/.slots`)]);
  const slots: Slot[] = [];
  const at = (index: number): Slot => {
    for (let i = slots.length; i <= index; i++) slots.push({ files: [] });
    return slots[index]!;
  };
  for (const path of listing) {
    const parts = parseEventFileName(path);
    if (parts) at(parts.index).files.push(path);
  }
  const claims: { index: number; path: string }[] = [];
  for (const path of claimListing) {
    const match = SLOT_NAME.exec(path);
    if (match) claims.push({ index: Number(match[1]), path });
  }
  for (const { index } of claims) at(index);
  const read = await readBytes(
    store,
    claims.map((claim) => claim.path),
  );
  claims.forEach(({ index, path }, position) => {
    const bytes = read[position];
    if (!(bytes instanceof Uint8Array)) {
      at(index).claim = { error: bytes === undefined ? `${store.describe(path)}: not read` : bytes.message };
      return;
    }
    // Only the header is decoded: the event bytes are checked by hash, which is all verification needs.
    const parts = parseSlotClaimBytes(bytes);
    at(index).claim =
      parts.eventBytes === undefined
        ? { error: `${store.describe(path)}: ${parts.problem}` }
        : { link: parts.link, json: parts.eventBytes };
  });
  return slots;
}
