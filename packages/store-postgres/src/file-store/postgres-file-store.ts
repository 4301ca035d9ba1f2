import { FileNotFoundError, type FileStore, LeaseLostError, validateStorePath } from '@x/store';
import type { PostgresDatabase } from '../database.js';
import { isConnectionFailure } from '../internal/pg-errors.js';
import { retryOnConnectionFailure } from '../internal/retry.js';
import { fencedUpsert } from './fenced-upsert.js';

function toBuffer(data: string | Uint8Array): Buffer {
  return typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
}

/** The half-open key range [dir/, dir0) holds exactly the paths under `dir` ('0' follows '/'). */
function under(directory: string): [string, string] {
  return [`${directory}/`, `${directory}0`];
}

function compareCodePoints(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * A `FileStore` in one PostgreSQL table (`<prefix>files`, path → bytes): every write is one atomic
 * statement, `writeIfAbsent` is `INSERT … ON CONFLICT DO NOTHING`, `copy` copies inside the
 * database. Directories are implied by paths, as on S3. A `write` given a `fence` (a `PostgresLeases` lease) is
 * refused with `LeaseLostError`, nothing written, once that generation is no longer current (`fencesWrites`).
 * For conversation snapshots and metadata
 * beside a `PostgresEventLog`, so a replica needs no disk.
 */
export function createPostgresFileStore(
  database: PostgresDatabase,
  options: {
    /** How long a call keeps retrying while the database is unreachable (restarting), in ms. Default 30 000. */
    retryForMs?: number;
  } = {},
): FileStore {
  const table = `${database.tablePrefix}files`;
  const leases = `${database.tablePrefix}leases`;
  const retryForMs = options.retryForMs ?? 30_000;
  // Every statement below is idempotent (an upsert, a read, a delete), so repeating one after a lost
  // connection is safe; writeIfAbsent, whose outcome is then unknown, is settled by comparing bytes, and a fenced
  // write by asking whether its transaction committed (`fencedUpsert`).
  const query = <Row extends Record<string, unknown>>(text: string, values?: unknown[]): Promise<Row[]> =>
    retryOnConnectionFailure(() => database.query<Row>(text, values), retryForMs);
  const location = (key: string): string => `${database.location} ${table}/${key}`;
  return {
    async read(path) {
      const key = validateStorePath(path);
      const rows = await query<{ data: Buffer }>(`SELECT data FROM ${table} WHERE path = $1`, [key]);
      if (rows[0] === undefined) throw new FileNotFoundError({ path, location: location(key) });
      return rows[0].data.toString('utf8');
    },

    // A fenced write checks the lease in the upsert itself (as `PostgresEventLog` fences its appends).
    fencesWrites: true,

    async write(path, data, options) {
      const key = validateStorePath(path);
      const fence = options?.fence;
      if (fence === undefined) {
        await query(
          `INSERT INTO ${table} (path, data) VALUES ($1, $2)
           ON CONFLICT (path) DO UPDATE SET data = EXCLUDED.data, updated_at = now()`,
          [key, toBuffer(data)],
        );
        return;
      }
      // Checked in the upsert itself; a retry after a lost connection asks whether the first attempt committed.
      const written = await fencedUpsert(database, { table, leases, key, data: toBuffer(data), fence, retryForMs });
      if (!written) throw new LeaseLostError({ leaseKey: fence.key, generation: fence.generation });
    },

    async writeIfAbsent(path, data) {
      const key = validateStorePath(path);
      const bytes = toBuffer(data);
      const insert = `INSERT INTO ${table} (path, data) VALUES ($1, $2) ON CONFLICT (path) DO NOTHING RETURNING 1`;
      try {
        return (await database.query(insert, [key, bytes])).length === 1;
      } catch (error) {
        if (!isConnectionFailure(error)) throw error;
        // The insert may have committed before the connection was lost: the same bytes there are ours.
        if ((await query(insert, [key, bytes])).length === 1) return true;
        const rows = await query<{ data: Buffer }>(`SELECT data FROM ${table} WHERE path = $1`, [key]);
        return rows[0] !== undefined && Buffer.compare(rows[0].data, bytes) === 0;
      }
    },

    async copy(from, to) {
      const source = validateStorePath(from);
      const target = validateStorePath(to);
      const rows = await query(
        `INSERT INTO ${table} (path, data) SELECT $2, data FROM ${table} WHERE path = $1
         ON CONFLICT (path) DO UPDATE SET data = EXCLUDED.data, updated_at = now() RETURNING 1`,
        [source, target],
      );
      if (rows.length === 0) throw new FileNotFoundError({ path: from, location: location(source) });
    },

    async list(prefix) {
      const directory = validateStorePath(prefix, { allowTrailingSlash: true }).replace(/\/$/, '');
      const rows =
        directory === ''
          ? await query<{ path: string }>(`SELECT path FROM ${table}`)
          : await query<{ path: string }>(`SELECT path FROM ${table} WHERE path >= $1 AND path < $2`, under(directory));
      const start = directory === '' ? '' : `${directory}/`;
      const entries = new Set<string>();
      for (const { path } of rows) {
        const rest = path.slice(start.length);
        const slash = rest.indexOf('/');
        entries.add(slash === -1 ? path : `${start}${rest.slice(0, slash)}/`);
      }
      return [...entries].sort(compareCodePoints);
    },

    async delete(path) {
      const key = validateStorePath(path);
      await query(`DELETE FROM ${table} WHERE path = $1 OR (path >= $2 AND path < $3)`, [key, ...under(key)]);
    },

    async exists(path) {
      const key = validateStorePath(path);
      const rows = await query(`SELECT 1 FROM ${table} WHERE path = $1 OR (path >= $2 AND path < $3) LIMIT 1`, [
        key,
        ...under(key),
      ]);
      return rows.length === 1;
    },

    describe(path) {
      return location(validateStorePath(path, { allowTrailingSlash: true }));
    },
  };
}
