import { computeChainHash } from './chain-link.js';
import { type HeadRecord, headRecordPath } from './chain-records.js';
import type { ChainProblem } from './verify-report.js';

/** A head the chain must reach: a head record, or what a live writer knows (its hash when it holds it). */
export interface KnownHead {
  readonly length: number;
  readonly hash: string | undefined;
}

/** How many hashes `strippedChainStart` may compute: the search is quadratic in the stripped run's length. */
const STRIPPED_SEARCH_BUDGET = 200_000;

/**
 * The index where a chain whose links before `index` were stripped started: the first `start` from which links
 * recomputed over the event files' bytes (prev null at `start`) reproduce `prev`, the hash the first surviving
 * link chains to. `index - 1` (the one link known to be missing) when none does or the search is too long.
 */
export function strippedChainStart(
  index: number,
  prev: string,
  bytesAt: (index: number) => Uint8Array | Error | undefined,
): number {
  let budget = STRIPPED_SEARCH_BUDGET;
  for (let start = 0; start < index - 1; start++) {
    budget -= index - start;
    if (budget < 0) break;
    let hash: string | null = null;
    let at = start;
    for (; at < index; at++) {
      const eventBytes = bytesAt(at);
      if (!(eventBytes instanceof Uint8Array)) break;
      hash = computeChainHash(at, hash, eventBytes);
    }
    if (at === index && hash === prev) return start;
  }
  return index - 1;
}

/**
 * Checks the chain against the longest head record and the head a live writer knows: fewer events than a head
 * says means the log was cut short (first missing index: the log's length); a head whose last link hash differs
 * from the chain's at that index means the chain was rewritten up to there (the first rewritten event cannot be
 * told without the original links, so the head's last index is named).
 */
export function checkHeads(
  recorded: HeadRecord | undefined,
  known: KnownHead | undefined,
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
          message: `${gone} gone: the log had ${head.length} event${head.length === 1 ? '' : 's'} (${head.source}) and was cut short`,
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
