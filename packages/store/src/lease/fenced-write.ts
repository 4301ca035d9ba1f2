import type { FileStore } from '../file-store.js';
import type { Lease } from './lease.js';

/**
 * `store.write(path, data)`, refused (`LeaseLostError`, nothing written) once `lease` has been taken over: the
 * write of a state file by the holder of a run's lease, fenced as `fenceEventLog` fences its appends. A store with
 * `fencesWrites` (PostgreSQL) gets the lease as the write's `fence` and checks it in the same statement, so no
 * stale write can land; on the others the lease is checked just before the write (a write already past the check
 * when a takeover lands still lands: the new owner starts only after a whole ttl without renewals).
 */
export async function writeUnderLease(
  store: FileStore,
  path: string,
  data: string | Uint8Array,
  lease: Lease,
): Promise<void> {
  // A store that checks the fence inside its write needs no separate (racy) check first.
  if (store.fencesWrites === true) return store.write(path, data, { fence: lease });
  await lease.assertHeld();
  await store.write(path, data);
}
