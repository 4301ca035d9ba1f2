import type { KeyObject } from 'node:crypto';
import {
  type ChainProblem,
  type ChainProblemKind,
  type ChainReport,
  ChainTamperedError,
  computeChainHash,
  isHeadSignatureValid,
  type SignatureStatus,
  type SignedHead,
  signHead,
} from '@x/store';
import type { PostgresDatabase } from '../database.js';
import { retryOnConnectionFailure } from '../internal/retry.js';

const PAGE = 1000;

interface ChainRow {
  idx: number;
  event_id: string;
  body: string;
  prev_hash: string | null;
  hash: string | null;
}

/**
 * Checks the hash chain of the log `logId` (the `prev_hash`/`hash` columns the database sets on every
 * insert, migration 3) against the exact text of every row, as `verifyEventChain` does for event files:
 * reports the first altered, removed or inserted row by index and id, or a signed head that does not match.
 * Rows written before migration 3 are unchained, which is not a problem. Reads every row once, in pages.
 */
export async function verifyPostgresChain(
  database: PostgresDatabase,
  logId: string,
  options: { publicKey?: KeyObject | undefined; retryForMs: number },
): Promise<ChainReport> {
  const table = `${database.tablePrefix}events`;
  let length = 0;
  let chainedFrom: number | null = null;
  let prevHash: string | null = null;
  const hashes = new Map<number, string>();
  // The bodies before the first chained row: where a chain whose first links were stripped really started.
  const unchainedBodies: string[] = [];
  const result = (problem: ChainProblem | undefined, signature: SignatureStatus, signedLength: number | null) =>
    ({
      status: problem ? 'tampered' : chainedFrom === null ? 'unchained' : 'verified',
      length,
      chainedFrom,
      headHash: prevHash,
      signature,
      signedLength,
      problem,
    }) satisfies ChainReport;
  const fail = (kind: ChainProblemKind, index: number, id: string | undefined, message: string) =>
    result({ kind, index, id, message: `event ${index}${id ? ` (${id})` : ''} ${message}` }, 'not-checked', null);
  let previousId: string | undefined;
  for (;;) {
    // One row past the page: the last row of a page is told forged or not by the row after it, as any other is.
    const rows = await retryOnConnectionFailure(
      () =>
        database.query<ChainRow>(
          `SELECT idx, event_id, body, prev_hash, hash FROM ${table} WHERE log_id = $1 AND idx >= $2 ORDER BY idx LIMIT ${PAGE + 1}`,
          [logId, length],
        ),
      options.retryForMs,
    );
    for (const [position, row] of rows.slice(0, PAGE).entries()) {
      const index = length;
      if (row.idx !== index) return fail('removed', index, undefined, 'is missing (no row at this index)');
      length = index + 1;
      const bodyId = idOfBody(row.body);
      if (bodyId !== row.event_id) {
        return fail('altered', index, row.event_id, `holds an event whose id is '${bodyId ?? '?'}'`);
      }
      if (row.hash === null) {
        if (chainedFrom === null) {
          unchainedBodies.push(row.body);
          continue;
        }
        return fail('inserted', index, row.event_id, 'is not in the chain (it has no chain link)');
      }
      if (chainedFrom === null) {
        chainedFrom = index;
        if (row.prev_hash !== null && index > 0) {
          const start = strippedChainStart(unchainedBodies, row.prev_hash);
          return fail(
            'removed',
            start,
            undefined,
            start === index - 1
              ? `is missing from the chain: event ${index} chains to it`
              : `is where the chain starts, but the links of events ${start}…${index - 1} are missing: event ${index} chains to them`,
          );
        }
      }
      if (computeChainHash(index, row.prev_hash, row.body) !== row.hash) {
        return fail('altered', index, row.event_id, 'does not match its chain link (its text was changed)');
      }
      if (row.prev_hash !== prevHash && index > chainedFrom) {
        // The row before was replaced, or this row's own link was forged with another prev: then what follows it
        // (the next row, else the signed head of the chain) no longer chains to this one either (as
        // `verifyEventChain` tells them apart for event files).
        const follower = rows[position + 1];
        const next =
          follower !== undefined && follower.idx === index + 1
            ? follower.prev_hash
            : await headHashAt(database, logId, index + 1, options.retryForMs);
        if (next === undefined) {
          // The last row, and no head to tell: the link that does not hold is this row's own, so it is named.
          return fail(
            'altered',
            index,
            row.event_id,
            `chains to a hash event ${index - 1} does not have (its own link was forged, or event ${index - 1} was replaced: no later row or signed head tells which)`,
          );
        }
        if (next !== row.hash) {
          return fail(
            'altered',
            index,
            row.event_id,
            `has a forged chain link: it chains to a hash event ${index - 1} does not have`,
          );
        }
        return fail('altered', index - 1, previousId, `was replaced: event ${index} chains to a different hash`);
      }
      prevHash = row.hash;
      previousId = row.event_id;
      hashes.set(index, row.hash);
    }
    if (rows.length <= PAGE) break;
  }
  if (options.publicKey === undefined) return result(undefined, 'not-checked', null);
  const head = await readSignedHead(database, logId);
  const signatureProblem = (index: number, message: string): ChainProblem => ({
    kind: 'signature',
    index,
    id: undefined,
    message,
  });
  if (head === undefined) return result(signatureProblem(-1, 'no signed chain head was found'), 'absent', null);
  if (!isHeadSignatureValid(head, options.publicKey)) {
    return result(
      signatureProblem(head.length, 'the signed chain head does not match the public key'),
      'invalid',
      null,
    );
  }
  if (head.length > length) {
    const message = `events ${length}…${head.length - 1} were signed but are gone`;
    return result({ kind: 'removed', index: length, id: undefined, message }, 'valid', head.length);
  }
  if (head.length === 0 || hashes.get(head.length - 1) !== head.hash) {
    const message = `the signed head (${head.length} events) does not match the chain`;
    return result(signatureProblem(head.length, message), 'invalid', null);
  }
  return result(undefined, 'valid', head.length);
}

/** How many hashes `strippedChainStart` may compute: the search is quadratic in the stripped run's length. */
const STRIPPED_SEARCH_BUDGET = 200_000;

/**
 * Where a chain whose first links were cleared started (as `verifyEventChain` finds it for event files): the first
 * index from which links recomputed over the rows' bodies reproduce `prev`, the hash the first linked row chains
 * to; the last unlinked index when none does or the search is too long.
 */
function strippedChainStart(bodies: readonly string[], prev: string): number {
  const index = bodies.length;
  let budget = STRIPPED_SEARCH_BUDGET;
  for (let start = 0; start < index - 1; start++) {
    budget -= index - start;
    if (budget < 0) break;
    let hash: string | null = null;
    for (let at = start; at < index; at++) hash = computeChainHash(at, hash, bodies[at]!);
    if (hash === prev) return start;
  }
  return index - 1;
}

/**
 * Verifies the chain, then signs its head (length and last link hash) with the user's Ed25519 key into
 * the `chain_heads` table; a later verification with the public key also detects truncation and a
 * rewritten chain. Throws `ChainTamperedError` when the chain does not verify; undefined when nothing is chained.
 */
export async function signPostgresChainHead(
  database: PostgresDatabase,
  logId: string,
  options: { privateKey: KeyObject; retryForMs: number },
): Promise<SignedHead | undefined> {
  const report = await verifyPostgresChain(database, logId, { retryForMs: options.retryForMs });
  if (report.problem) throw new ChainTamperedError(report.problem);
  if (report.headHash === null) return undefined;
  const head = signHead(report.length, report.headHash, options.privateKey);
  await database.query(
    `INSERT INTO ${database.tablePrefix}chain_heads (log_id, length, hash, signature, public_key)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (log_id) DO UPDATE SET length = $2, hash = $3, signature = $4, public_key = $5`,
    [logId, head.length, head.hash, head.signature, head.publicKey],
  );
  return head;
}

/**
 * The hash the chain's signed head names when it covers exactly `length` rows (signature not checked: a witness of
 * which link was last, as `verifyEventChain` takes a head record); undefined otherwise.
 */
async function headHashAt(
  database: PostgresDatabase,
  logId: string,
  length: number,
  retryForMs: number,
): Promise<string | undefined> {
  const head = await retryOnConnectionFailure(() => readSignedHead(database, logId), retryForMs);
  return head?.length === length ? head.hash : undefined;
}

async function readSignedHead(database: PostgresDatabase, logId: string): Promise<SignedHead | undefined> {
  const [row] = await database.query<{ length: number; hash: string; signature: string; public_key: string }>(
    `SELECT length, hash, signature, public_key FROM ${database.tablePrefix}chain_heads WHERE log_id = $1`,
    [logId],
  );
  if (row === undefined) return undefined;
  return { length: row.length, hash: row.hash, signature: row.signature, publicKey: row.public_key };
}

function idOfBody(body: string): string | undefined {
  try {
    const value = JSON.parse(body) as { id?: unknown };
    return typeof value.id === 'string' ? value.id : undefined;
  } catch {
    return undefined;
  }
}
