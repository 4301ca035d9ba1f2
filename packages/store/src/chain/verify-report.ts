/**
 * What `verifyEventChain` found wrong first. `damaged`: a segment log's records are damaged from `index` on (changed
 * since they were written, and no repair record restores them); the message is the `DamagedSegmentError`'s, naming
 * the bytes and the events lost from the segment.
 */
export type ChainProblemKind = 'altered' | 'removed' | 'reordered' | 'inserted' | 'signature' | 'damaged';

/** The first problem in a log's chain, by index (and id where one is known). */
export interface ChainProblem {
  readonly kind: ChainProblemKind;
  /**
   * Index of the first event concerned (for `signature`: the signed length, or -1 when no head is signed; -1
   * also for a chain record in `<dir>/.chain/` that cannot be read).
   */
  readonly index: number;
  /** The id of the event concerned, where known. */
  readonly id: string | undefined;
  /** One readable sentence: what is wrong and where. */
  readonly message: string;
}

/** Whether the signed head checked out. */
export type SignatureStatus = 'valid' | 'invalid' | 'absent' | 'not-checked';

/** The outcome of `verifyEventChain`. */
export interface ChainReport {
  /**
   * `verified`: every event from `chainedFrom` on is chained and intact (events before it are unchained).
   * `unchained`: no event carries a link (written before chaining, or by the reference).
   * `tampered`: see `problem`.
   */
  readonly status: 'verified' | 'unchained' | 'tampered';
  /** Events found (event files, plus a committed claim whose file is not written yet). */
  readonly length: number;
  /** Index of the first chained event, or null when none is chained. */
  readonly chainedFrom: number | null;
  /** The link hash of the last chained event, or null. */
  readonly headHash: string | null;
  /** The signed head's status (`not-checked` when no public key was given). */
  readonly signature: SignatureStatus;
  /** How many events the signed head covers, when a valid one was found. */
  readonly signedLength: number | null;
  /**
   * How many events the longest unsigned head record covers (`<dir>/.chain/head-*.json`, written when a log that
   * appended closes), or null when there is none. Only the file log writes them.
   */
  readonly recordedLength?: number | null;
  /** The first problem, when `status` is `tampered`. */
  readonly problem: ChainProblem | undefined;
  /**
   * Indices of events checked from their slot claims because their event files are not written yet (the
   * log's last ones) or were left unfinished (empty or cut short by a power loss); the next `open` or read of
   * the log writes those files from the claims. Only the file log has claims; other logs leave it absent.
   */
  readonly fromClaims?: readonly number[];
}
