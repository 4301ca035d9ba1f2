import type { FileStore } from '@x/store';

const META = /^([0-9a-f]{32})\/meta\.json$/;
const DIRECTORY = /^([0-9a-f]{32})\/?$/;

/** What the store tells the index: a conversation's meta.json was written, or its directory removed. */
export interface ConversationIndexSink {
  upsert(record: {
    conversationId: string;
    status: string;
    title: string | null;
    createdAt?: string;
    updatedAt?: string;
    /** Fork provenance, when meta.json records it (an index may keep it to list a conversation's forks). */
    forkedFrom?: { conversationId: string; eventId: string | null };
  }): Promise<void>;
  delete(conversationId: string): Promise<unknown>;
  /**
   * Optional: writes meta.json (`file`, a path of the same store) and the row in one commit (PostgreSQL: one
   * statement), instead of the store's write then `upsert`.
   */
  upsertWithFile?(
    record: Parameters<ConversationIndexSink['upsert']>[0],
    file: { path: string; data: string | Uint8Array },
  ): Promise<void>;
}

/**
 * `store`, keeping `index` current: every write of `<hex>/meta.json` (the server's record of a conversation:
 * status, title) updates the conversation's row, and removing `<hex>` (a delete) removes it. The write
 * itself comes first, so the files stay the truth and a failed index update only leaves the row stale; an index
 * with `upsertWithFile` (PostgreSQL) writes both in one commit instead.
 */
export function indexedConversationStore(store: FileStore, index: ConversationIndexSink): FileStore {
  const indexed: FileStore = {
    read: (path) => store.read(path),
    async write(path, data) {
      const hex = META.exec(path)?.[1];
      if (hex === undefined || index.upsertWithFile === undefined) await store.write(path, data);
      if (hex === undefined) return;
      const meta = JSON.parse(typeof data === 'string' ? data : Buffer.from(data).toString('utf8')) as {
        execution_status?: unknown;
        title?: unknown;
        state_title?: unknown;
        created_at?: unknown;
        updated_at?: unknown;
        forked_from_conversation_id?: unknown;
        forked_from_event_id?: unknown;
      };
      const record = {
        conversationId: hex,
        status: typeof meta.execution_status === 'string' ? meta.execution_status : 'idle',
        // The title a listing shows: the one given at create, else the one generated into the state.
        title:
          typeof meta.title === 'string' ? meta.title : typeof meta.state_title === 'string' ? meta.state_title : null,
        // meta.json's times (what listings without the index sort by), not the time of this write.
        ...(typeof meta.created_at === 'string' ? { createdAt: meta.created_at } : {}),
        ...(typeof meta.updated_at === 'string' ? { updatedAt: meta.updated_at } : {}),
        ...(typeof meta.forked_from_conversation_id === 'string'
          ? {
              forkedFrom: {
                conversationId: meta.forked_from_conversation_id,
                eventId: typeof meta.forked_from_event_id === 'string' ? meta.forked_from_event_id : null,
              },
            }
          : {}),
      };
      if (index.upsertWithFile === undefined) await index.upsert(record);
      else await index.upsertWithFile(record, { path, data });
    },
    writeIfAbsent: (path, data) => store.writeIfAbsent(path, data),
    copy: (from, to) => store.copy(from, to),
    list: (prefix) => store.list(prefix),
    async delete(path) {
      await store.delete(path);
      const hex = DIRECTORY.exec(path)?.[1];
      if (hex !== undefined) await index.delete(hex);
    },
    exists: (path) => store.exists(path),
    describe: (path) => store.describe(path),
  };
  // The optional fast paths pass through (none of them writes meta.json, which the EventLog never touches):
  // without them the server's logs would list sorted, never trust their name index and walk twice per append.
  if (store.readBatch !== undefined) {
    const readBatch = store.readBatch.bind(store);
    indexed.readBatch = (paths) => readBatch(paths);
  }
  if (store.listUnordered !== undefined) {
    const listUnordered = store.listUnordered.bind(store);
    indexed.listUnordered = (prefix) => listUnordered(prefix);
  }
  if (store.listingVersion !== undefined) {
    const listingVersion = store.listingVersion.bind(store);
    indexed.listingVersion = (dir, options) => listingVersion(dir, options);
  }
  if (store.writeIfAbsentThenWrite !== undefined) {
    const writePair = store.writeIfAbsentThenWrite.bind(store);
    indexed.writeIfAbsentThenWrite = async (first, then, onCreated, options) => {
      if (META.test(first.path) || META.test(then.path)) {
        if (!(await indexed.writeIfAbsent(first.path, first.data))) return false;
        onCreated();
        await indexed.write(then.path, then.data);
        return true;
      }
      return writePair(first, then, onCreated, options);
    };
  }
  if (store.writeIfAbsentThenLinkMany !== undefined) {
    const writeLinked = store.writeIfAbsentThenLinkMany.bind(store);
    // The EventLog's staged bodies, claims and event files (one copy of each event's bytes): never meta.json,
    // and a published name is a `copy`, which the index ignores too.
    indexed.writeIfAbsentThenLinkMany = (items, onCreated, options) => writeLinked(items, onCreated, options);
  }
  // The segment layout's calls (its segment and the event files derived from it): never meta.json either.
  if (store.openAppendFile !== undefined) {
    const openAppendFile = store.openAppendFile.bind(store);
    indexed.openAppendFile = (path) => openAppendFile(path);
  }
  if (store.writeRebuildable !== undefined) {
    const writeRebuildable = store.writeRebuildable.bind(store);
    indexed.writeRebuildable = (files) => writeRebuildable(files);
  }
  if (store.fileSizes !== undefined) {
    const fileSizes = store.fileSizes.bind(store);
    indexed.fileSizes = (paths) => fileSizes(paths);
  }
  return indexed;
}
