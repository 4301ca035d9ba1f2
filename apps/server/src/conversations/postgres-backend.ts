import type { ConversationOptions } from '@x/agent';
import type { FileStore, Leases } from '@x/store';
import type { PostgresConversationIndex } from '@x/store-postgres';
import { hyphenate } from '../internal/conversation-ids.js';
import type { ConversationListing, ConversationSortOrder } from './conversation-listing.js';
import { readConversationMeta } from './conversation-meta.js';
import { type ConversationIndexSink, indexedConversationStore } from './indexed-store.js';

const ORDERS = {
  CREATED_AT: 'created_asc',
  CREATED_AT_DESC: 'created_desc',
  UPDATED_AT: 'updated_asc',
  UPDATED_AT_DESC: 'updated_desc',
} as const satisfies Record<ConversationSortOrder, string>;

/**
 * Conversations written before the index existed (or by a version without it) get their row: one listing
 * and one query when every conversation has one already.
 */
async function indexMissingConversations(store: FileStore, index: PostgresConversationIndex): Promise<void> {
  const rows = await index.database.query<{ conversation_id: string }>(
    `SELECT conversation_id FROM ${index.database.tablePrefix}conversations`,
  );
  const indexed = new Set(rows.map((row) => row.conversation_id));
  for (const entry of await store.list('')) {
    const hex = /^([0-9a-f]{32})\/$/.exec(entry)?.[1];
    if (hex === undefined || indexed.has(hex)) continue;
    const meta = await readConversationMeta(store, hex).catch(() => undefined);
    if (meta !== undefined) {
      await index.upsert({
        conversationId: hex,
        status: meta.execution_status,
        title: meta.title ?? null,
        createdAt: meta.created_at,
        updatedAt: meta.updated_at,
        ...(meta.forked_from_conversation_id === undefined || meta.forked_from_conversation_id === null
          ? {}
          : { forkedFrom: forkLink(meta.forked_from_conversation_id, meta.forked_from_event_id ?? null) }),
      });
    }
  }
}

/**
 * Rows written before the table kept fork links (schema 5) get theirs from meta.json: one query finds the forks
 * whose row lacks the link (meta.json is written compactly, so a fork's holds `"forked_from_conversation_id":"`),
 * and only those are read.
 */
async function backfillForkLinks(store: FileStore, index: PostgresConversationIndex): Promise<void> {
  const { tablePrefix } = index.database;
  const rows = await index.database.query<{ conversation_id: string }>(
    `SELECT c.conversation_id FROM ${tablePrefix}conversations c
     JOIN ${tablePrefix}files f ON f.path = c.conversation_id || '/meta.json'
     WHERE c.forked_from_conversation_id IS NULL
       AND position(convert_to('"forked_from_conversation_id":"', 'UTF8') in f.data) > 0`,
  );
  for (const { conversation_id: hex } of rows) {
    const meta = await readConversationMeta(store, hex).catch(() => undefined);
    const source = meta?.forked_from_conversation_id;
    if (typeof source !== 'string') continue;
    // Its own update time: a backfill is no change of the conversation (listings sort by it).
    await index.upsert({
      conversationId: hex,
      updatedAt: meta!.updated_at,
      forkedFrom: forkLink(source, meta?.forked_from_event_id ?? null),
    });
  }
}

/**
 * The conversations table as the indexed store's sink: meta.json and its row in one statement, so a status change
 * costs one commit, not two (the file store and the index share the database).
 */
export function postgresIndexSink(index: PostgresConversationIndex): ConversationIndexSink {
  const row = (record: Parameters<ConversationIndexSink['upsert']>[0]) => {
    const { forkedFrom, ...rest } = record;
    return forkedFrom === undefined
      ? rest
      : { ...rest, forkedFrom: forkLink(forkedFrom.conversationId, forkedFrom.eventId) };
  };
  return {
    upsert: (record) => index.upsert(row(record)),
    upsertWithFile: (record, file) => index.upsert(row(record), { file }),
    delete: (conversationId) => index.delete(conversationId),
  };
}

/** Rows are keyed by 32 hex digits: a fork's source is kept so, whichever form meta.json has it in. */
function forkLink(sourceId: string, eventId: string | null): { conversationId: string; eventId: string | null } {
  return { conversationId: sourceId.replace(/-/g, '').toLowerCase(), eventId };
}

/** What a server shares with other replicas through PostgreSQL. */
export interface SharedConversationBackend {
  store: FileStore;
  /** Reported as `persistence_dir`: the database URL without its password. */
  root: string;
  /** Given to every Conversation: events in the events table, one fenced owner per run. */
  conversationOptions: Pick<ConversationOptions, 'openEventLog' | 'leases' | 'interruptedActions'>;
  /** Lists and counts the conversations with SQL (the conversations table), never reading them all. */
  listing: ConversationListing;
  /** The forks of a conversation (32 hex), from the conversations table's fork links, oldest first. */
  forks: { forksOf(sourceHex: string): Promise<{ conversation_id: string; from_event_id: string | null }[]> };
  /** The run leases every conversation takes (also given in `conversationOptions`). */
  leases: Leases;
  /** Keys of the run leases whose owner died (expired without being released): runs to recover. */
  expiredLeases(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * Connects to the database (migrating its schema) and builds what every conversation of this replica
 * uses: snapshots and meta.json in the files table, events in the events table, leases. The driver is
 * imported only here, so servers without `databaseUrl` never load it.
 */
export async function openPostgresBackend(
  url: string,
  options: { leaseTtlMs?: number; interruptedActions?: ConversationOptions['interruptedActions'] } = {},
): Promise<SharedConversationBackend> {
  const { connectPostgres, createPostgresFileStore, PostgresConversationIndex, PostgresEventLog, PostgresLeases } =
    await import('@x/store-postgres');
  const database = await connectPostgres({ url });
  const index = new PostgresConversationIndex(database);
  const store = indexedConversationStore(createPostgresFileStore(database), postgresIndexSink(index));
  await indexMissingConversations(store, index);
  await backfillForkLinks(store, index);
  const leases = new PostgresLeases(database, options.leaseTtlMs === undefined ? {} : { ttlMs: options.leaseTtlMs });
  return {
    store,
    listing: {
      async page({ status, query, sortOrder, startAt, after, limit }) {
        const known = startAt !== undefined && (await index.get(startAt)) !== undefined;
        const page = await index.search({
          ...(status === undefined ? {} : { status }),
          ...(query === undefined ? {} : { textContains: query.trim() }),
          order: ORDERS[sortOrder],
          ...(known ? { startAt } : after === undefined ? {} : { after: { at: after.at, conversationId: after.id } }),
          limit: limit + 1,
        });
        const items = page.items.slice(0, limit);
        const next = page.items[limit]?.conversationId;
        const last = items.at(-1);
        const ids = items.map((item) => item.conversationId);
        if (next === undefined || last === undefined) return { ids };
        const at = sortOrder.startsWith('UPDATED_AT') ? last.updatedAt : last.createdAt;
        return { ids, next, end: { at, id: last.conversationId } };
      },
      count: (status, query) =>
        index.count({
          ...(status === undefined ? {} : { status }),
          ...(query === undefined ? {} : { textContains: query.trim() }),
        }),
    },
    forks: {
      forksOf: async (sourceHex) =>
        (await index.forksOf(sourceHex)).map((fork) => ({
          conversation_id: hyphenate(fork.conversationId),
          from_event_id: fork.fromEventId,
        })),
    },
    root: database.location,
    conversationOptions: {
      openEventLog: ({ conversationId }) => PostgresEventLog.open(database, { logId: conversationId }),
      leases,
      interruptedActions: options.interruptedActions ?? 'report',
    },
    leases,
    expiredLeases: () => leases.expired(),
    close: () => database.close(),
  };
}
