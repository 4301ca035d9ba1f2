import type { FileStore } from '@x/store';
import { hyphenate } from '../internal/conversation-ids.js';
import type { ConversationListing, ConversationSortOrder, ListingPosition } from './conversation-listing.js';
import { type ConversationMeta, metaPath, readConversationMeta } from './conversation-meta.js';

/** What the index keeps of a conversation's meta. */
type IndexedMeta = Pick<
  ConversationMeta,
  'id' | 'execution_status' | 'title' | 'state_title' | 'created_at' | 'updated_at'
> &
  Partial<Pick<ConversationMeta, 'forked_from_conversation_id' | 'forked_from_event_id'>>;

/** A conversation forked from another (its meta's fork provenance). */
export interface ForkRecord {
  /** Hyphenated id of the fork. */
  conversation_id: string;
  from_event_id: string | null;
}

const HEX = /^[0-9a-f]{32}$/;
const optionalString = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * The indexed fields of a meta.json read in a batch, checked by hand (a full schema parse costs more than the
 * read, for 10,000 files at start-up); undefined when it is missing or unreadable (left out of listings).
 */
function parseMeta(data: Uint8Array | Error): IndexedMeta | undefined {
  if (data instanceof Error) return undefined;
  try {
    const meta = JSON.parse(new TextDecoder().decode(data)) as Record<string, unknown>;
    if (typeof meta.id !== 'string' || !HEX.test(meta.id)) return undefined;
    if (typeof meta.created_at !== 'string' || typeof meta.updated_at !== 'string') return undefined;
    return {
      id: meta.id,
      execution_status: typeof meta.execution_status === 'string' ? meta.execution_status : 'idle',
      title: optionalString(meta.title),
      state_title: optionalString(meta.state_title),
      created_at: meta.created_at,
      updated_at: meta.updated_at,
      forked_from_conversation_id: optionalString(meta.forked_from_conversation_id),
      forked_from_event_id: optionalString(meta.forked_from_event_id),
    };
  } catch {
    return undefined;
  }
}

import type { ConversationIndexSink } from './indexed-store.js';

interface IndexedConversation {
  hex: string;
  status: string;
  /** Lower-cased, for the `q` filter. */
  title: string;
  createdAt: string;
  updatedAt: string;
}

const CONVERSATION_DIRECTORY = /^([0-9a-f]{32})\/$/;
/** meta.json reads in flight while loading: S3 is slow one by one, but thousands at once exhaust sockets. */
const LOAD_PARALLELISM = 256;

/**
 * A single server's conversation index, in memory: what the PostgreSQL conversations table is to replicas.
 * Search and count read it instead of opening every conversation, so a page costs the same with 10 or
 * 10,000 conversations on disk, and listing keeps nothing open but the page it returns. It is filled once
 * from every meta.json at start-up and kept current by the store (`indexedConversationStore`): every
 * meta.json write (create, status change, title) updates a row, a delete removes it.
 */
export class MemoryConversationIndex implements ConversationIndexSink, ConversationListing {
  readonly #rows = new Map<string, IndexedConversation>();
  /** Rows sorted per order, rebuilt on the first page after a change (a sort of 10,000 rows takes ~5 ms). */
  readonly #sorted = new Map<ConversationSortOrder, IndexedConversation[]>();
  #excluded: (hex: string) => boolean = () => false;
  /** Source hex → its forks (fork hex → record): the viewer's graph shows a conversation's forks without a scan. */
  readonly #forks = new Map<string, Map<string, ForkRecord>>();

  /** Leaves out of pages and counts the conversations `excluded` names (those found damaged when opened). */
  exclude(excluded: (hex: string) => boolean): void {
    this.#excluded = excluded;
  }

  /** Follows a conversation's meta as it changes in memory (`ManagedConversationDeps.onMetaChange`). */
  follow(meta: IndexedMeta): void {
    if (typeof meta.forked_from_conversation_id === 'string') {
      this.#recordFork(meta.id, meta.forked_from_conversation_id, meta.forked_from_event_id ?? null);
    }
    this.#set({
      hex: meta.id,
      status: meta.execution_status,
      title: meta.title ?? meta.state_title ?? null,
      createdAt: meta.created_at,
      updatedAt: meta.updated_at,
    });
  }

  /** Reads every conversation's meta.json; a conversation whose meta.json cannot be read is left out. */
  async load(store: FileStore): Promise<void> {
    const hexes: string[] = [];
    for (const entry of await store.list('')) {
      const hex = CONVERSATION_DIRECTORY.exec(entry.toLowerCase())?.[1];
      if (hex !== undefined) hexes.push(hex);
    }
    const batch = store.readBatch?.bind(store);
    for (let start = 0; start < hexes.length; start += LOAD_PARALLELISM) {
      const slice = hexes.slice(start, start + LOAD_PARALLELISM);
      // The local store reads a batch in one go (one directory handle); others read file by file.
      const metas =
        batch === undefined
          ? await Promise.all(slice.map((hex) => readConversationMeta(store, hex).catch(() => undefined)))
          : (await batch(slice.map(metaPath))).map(parseMeta);
      for (const meta of metas) {
        // A row written meanwhile (by a create or a status change) is newer than the file read here.
        if (meta !== undefined && !this.#rows.has(meta.id)) this.follow(meta);
      }
    }
  }

  async upsert(record: {
    conversationId: string;
    status: string;
    title: string | null;
    createdAt?: string;
    updatedAt?: string;
    forkedFrom?: { conversationId: string; eventId: string | null };
  }): Promise<void> {
    if (record.forkedFrom !== undefined) {
      this.#recordFork(record.conversationId, record.forkedFrom.conversationId, record.forkedFrom.eventId);
    }
    const known = this.#rows.get(record.conversationId);
    this.#set({
      hex: record.conversationId,
      status: record.status,
      title: record.title,
      createdAt: record.createdAt ?? known?.createdAt ?? '',
      updatedAt: record.updatedAt ?? known?.updatedAt ?? '',
    });
  }

  async delete(conversationId: string): Promise<boolean> {
    for (const forks of this.#forks.values()) forks.delete(conversationId);
    this.#forks.delete(conversationId);
    const deleted = this.#rows.delete(conversationId);
    if (deleted) this.#sorted.clear();
    return deleted;
  }

  async page(query: {
    status?: string | undefined;
    query?: string | undefined;
    sortOrder: ConversationSortOrder;
    startAt?: string | undefined;
    after?: ListingPosition | undefined;
    limit: number;
  }): Promise<{ ids: string[]; next?: string; end?: ListingPosition }> {
    const matching = this.#matching(this.#ordered(query.sortOrder), query.status, query.query);
    const start = this.#start(matching, query);
    const page = matching.slice(start, start + query.limit);
    const next = matching[start + query.limit]?.hex;
    const last = page.at(-1);
    if (next === undefined || last === undefined) return { ids: page.map((row) => row.hex) };
    return { ids: page.map((row) => row.hex), next, end: { at: last[sortField(query.sortOrder)], id: last.hex } };
  }

  async count(status?: string, query?: string): Promise<number> {
    return this.#matching([...this.#rows.values()], status, query).length;
  }

  /** The conversations forked from `sourceHex` (32 hex), in the order they were indexed. */
  forksOf(sourceHex: string): ForkRecord[] {
    return [...(this.#forks.get(sourceHex)?.values() ?? [])];
  }

  /** The ids (32 hex) of the conversations whose meta.json records `status`. */
  idsWithStatus(status: string): string[] {
    return [...this.#rows.values()].filter((row) => row.status === status).map((row) => row.hex);
  }

  get size(): number {
    return this.#rows.size;
  }

  #recordFork(forkHex: string, sourceId: string, fromEventId: string | null): void {
    const source = sourceId.replace(/-/g, '').toLowerCase();
    if (!HEX.test(source)) return;
    const forks = this.#forks.get(source) ?? new Map<string, ForkRecord>();
    forks.set(forkHex, { conversation_id: hyphenate(forkHex), from_event_id: fromEventId });
    this.#forks.set(source, forks);
  }

  #set(row: { hex: string; status: string; title: string | null; createdAt: string; updatedAt: string }): void {
    this.#rows.set(row.hex, { ...row, title: (row.title ?? '').toLowerCase() });
    this.#sorted.clear();
  }

  /** Where a page starts in `matching`: at `startAt` when known, else just after `after`, else at the top. */
  #start(
    matching: IndexedConversation[],
    query: { sortOrder: ConversationSortOrder; startAt?: string | undefined; after?: ListingPosition | undefined },
  ): number {
    const found = query.startAt === undefined ? -1 : matching.findIndex((row) => row.hex === query.startAt);
    if (found >= 0 || query.after === undefined) return Math.max(0, found);
    const { after, sortOrder } = query;
    // By value, not by finding the row: the conversation `after` names may be deleted since its page was given.
    const field = sortField(sortOrder);
    const beyond = matching.findIndex((row) => compareRows(sortOrder, { at: row[field], id: row.hex }, after) > 0);
    return beyond < 0 ? matching.length : beyond;
  }

  #ordered(order: ConversationSortOrder): IndexedConversation[] {
    let sorted = this.#sorted.get(order);
    if (sorted === undefined) {
      const field = sortField(order);
      sorted = [...this.#rows.values()].sort((a, b) =>
        compareRows(order, { at: a[field], id: a.hex }, { at: b[field], id: b.hex }),
      );
      this.#sorted.set(order, sorted);
    }
    return sorted;
  }

  /** The rows with that status whose title or id (hyphenated or as 32 hex) contains `query`, ignoring case. */
  #matching(rows: IndexedConversation[], status: string | undefined, query: string | undefined) {
    const needle = query?.trim().toLowerCase() ?? '';
    return rows.filter(
      (row) =>
        !this.#excluded(row.hex) &&
        (status === undefined || row.status === status) &&
        (needle === '' ||
          row.title.includes(needle) ||
          row.hex.includes(needle) ||
          hyphenated(row.hex).includes(needle)),
    );
  }
}

const sortField = (order: ConversationSortOrder): 'updatedAt' | 'createdAt' =>
  order.startsWith('UPDATED_AT') ? 'updatedAt' : 'createdAt';

/** Negative when `a` comes before `b` in `order` (by time, ties by id). */
function compareRows(order: ConversationSortOrder, a: ListingPosition, b: ListingPosition): number {
  const compared = a.at.localeCompare(b.at) || a.id.localeCompare(b.id);
  return order.endsWith('_DESC') ? -compared : compared;
}

function hyphenated(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
