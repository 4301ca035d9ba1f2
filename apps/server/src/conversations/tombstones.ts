import type { FileStore } from '@x/store';

/**
 * Deletion markers at the root of the store, outside every conversation directory (so the reference's
 * layout inside `<id hex>/` is untouched): `.x-deleted/<id hex>` is written before a conversation's
 * directory is removed and deleted after, so a delete cut short by a crash or a failing store is finished
 * at the next start instead of the conversation coming back.
 */
export const TOMBSTONE_DIR = '.x-deleted';

export function tombstonePath(hex: string): string {
  return `${TOMBSTONE_DIR}/${hex}`;
}

export async function writeTombstone(store: FileStore, hex: string): Promise<void> {
  await store.write(tombstonePath(hex), JSON.stringify({ id: hex, deleted_at: new Date().toISOString() }));
}

/** Removes the conversation's directory, then its tombstone (in that order: the marker outlives the data). */
export async function finishDeletion(store: FileStore, hex: string): Promise<void> {
  await store.delete(hex);
  await store.delete(tombstonePath(hex));
}

/** The ids (hex) of the conversations whose deletion was begun and not finished. */
export async function listTombstones(store: FileStore): Promise<string[]> {
  const entries = await store.list(TOMBSTONE_DIR);
  return entries.map((entry) => entry.slice(TOMBSTONE_DIR.length + 1)).filter((name) => /^[0-9a-f]{32}$/.test(name));
}
