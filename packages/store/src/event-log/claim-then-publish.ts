import type { FileStore, StoreWrite } from '../file-store.js';

/**
 * Step 1 and 2 of an append: create the slot claim if the slot is free, then publish the event file.
 * `onClaimed` runs as soon as the claim exists (the event is committed from then on, even if the event
 * file's write fails). Resolves false when another writer holds the slot (nothing written). One store
 * call where the store offers `writeIfAbsentThenWrite` (the local store: one directory walk), else two.
 */
export async function claimThenPublish(
  store: FileStore,
  claim: StoreWrite,
  eventFile: StoreWrite,
  onClaimed: () => void,
): Promise<boolean> {
  if (store.writeIfAbsentThenWrite) return store.writeIfAbsentThenWrite(claim, eventFile, onClaimed);
  if (!(await store.writeIfAbsent(claim.path, claim.data))) return false;
  onClaimed();
  await store.write(eventFile.path, eventFile.data);
  return true;
}
