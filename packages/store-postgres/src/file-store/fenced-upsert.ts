import { setTimeout as sleep } from 'node:timers/promises';
import type { AppendFence } from '@x/store';
import type { PostgresDatabase } from '../database.js';
import { isConnectionFailure } from '../internal/pg-errors.js';
import { retryOnConnectionFailure } from '../internal/retry.js';

/** How often the outcome of a transaction whose backend is still exiting is asked again (ms). */
const OUTCOME_POLL_MS = 5;

/**
 * Upserts `data` at `key` in `table` only while `fence` is the lease's current generation (the share lock on the
 * lease row at that generation: no row, so nothing written, once another owner took it over, and no takeover can
 * commit until this write has). Resolves with whether it was written.
 *
 * The upsert runs in a transaction whose id is read first, so a connection lost around the commit leaves an
 * answer to ask for: the database says whether that transaction committed (`pg_xact_status`). A retry that only
 * repeated the upsert would be refused by the fence when another owner took the lease over meanwhile, and report
 * nothing written though the first attempt's write had landed.
 */
export async function fencedUpsert(
  database: PostgresDatabase,
  options: { table: string; leases: string; key: string; data: Buffer; fence: AppendFence; retryForMs: number },
): Promise<boolean> {
  const { table, leases, key, data, fence, retryForMs } = options;
  const sql = `WITH fence AS (SELECT 1 FROM ${leases} WHERE lease_key = $3 AND generation = $4 FOR SHARE)
     INSERT INTO ${table} (path, data) SELECT $1, $2 FROM fence
     ON CONFLICT (path) DO UPDATE SET data = EXCLUDED.data, updated_at = now() RETURNING 1`;
  return retryOnConnectionFailure(async () => {
    let transactionId: string | undefined;
    let written: boolean | undefined;
    try {
      return await database.transaction(async (client) => {
        const id = await client.query<{ id: string }>('SELECT pg_current_xact_id()::text AS id');
        transactionId = id.rows[0]!.id;
        written = (await client.query(sql, [key, data, fence.key, fence.generation])).rows.length === 1;
        return written;
      });
    } catch (error) {
      if (!isConnectionFailure(error) || transactionId === undefined) throw error;
      // Committed: its upsert had answered (the commit is sent after it), and that answer stands.
      const outcome = await retryOnConnectionFailure(() => transactionOutcome(database, transactionId!), retryForMs);
      if (outcome === 'committed' && written !== undefined) return written;
      // Aborted (or never committed): nothing of it landed, so the whole write is tried again.
      throw error;
    }
  }, retryForMs);
}

/** Whether transaction `id` committed; waits while it is still in progress (its backend is exiting). */
async function transactionOutcome(database: PostgresDatabase, id: string): Promise<'committed' | 'aborted'> {
  for (;;) {
    const rows = await database.query<{ status: string | null }>('SELECT pg_xact_status($1::xid8) AS status', [id]);
    const status = rows[0]?.status;
    if (status === 'committed') return 'committed';
    if (status !== 'in progress') return 'aborted';
    await sleep(OUTCOME_POLL_MS);
  }
}
