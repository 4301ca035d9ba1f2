import { StoreError } from '../errors.js';
import type { FileStore, StoreWrite } from '../file-store.js';

/** Where an append wants the listing versions of its directory around its writes (see `FileStore.listingVersion`). */
export interface ListingVersionsWanted {
  /** The event file's directory. */
  readonly dir: string;
  /** Called once both files are written, with the version just before the claim and just after the event file. */
  observe(before: string | undefined, after: string): void;
}

/**
 * Step 1 and 2 of an append: create the slot claim if the slot is free, then publish the event file.
 * `onClaimed` runs as soon as the claim exists (the event is committed from then on, even if the event
 * file's write fails). Resolves false when another writer holds the slot (nothing written). One store
 * call where the store offers `writeIfAbsentThenWrite` (the local store: one directory walk), else two.
 * With `versions`, also reports the directory's listing versions around the two writes. With `deferRest`,
 * a store that can resolves once the claim is durable and leaves the event file's durability to later (the
 * local store with `'fsync'` writes it unsynced; S3 hands over its PutObject). That is safe because the claim
 * is the commit point and holds the whole event: a file a crash or power loss leaves missing, empty or cut
 * short is rebuilt from its claim by the next open or read (see `FileStore.writeIfAbsentThenWrite`).
 */
export async function claimThenPublish(
  store: FileStore,
  claim: StoreWrite,
  eventFile: StoreWrite,
  onClaimed: () => void,
  versions?: ListingVersionsWanted,
  deferRest?: (synced: Promise<void>) => void,
): Promise<boolean> {
  if (store.writeIfAbsentThenWrite) {
    return store.writeIfAbsentThenWrite(claim, eventFile, onClaimed, {
      ...(versions && { onVersions: versions.observe }),
      ...(deferRest && { deferThen: deferRest }),
    });
  }
  const before = versions === undefined ? undefined : await listingVersionOf(store, versions.dir);
  if (!(await store.writeIfAbsent(claim.path, claim.data))) return false;
  onClaimed();
  await store.write(eventFile.path, eventFile.data);
  if (versions !== undefined) {
    const after = await listingVersionOf(store, versions.dir);
    if (after !== undefined) versions.observe(before, after);
  }
  return true;
}

async function listingVersionOf(store: FileStore, dir: string): Promise<string | undefined> {
  try {
    return await store.listingVersion?.(dir);
  } catch (error) {
    if (!StoreError.isInstance(error)) throw error;
    return undefined;
  }
}
