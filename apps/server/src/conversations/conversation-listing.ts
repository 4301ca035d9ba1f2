/** The server's sort orders (reference `ConversationSortOrder`). */
export type ConversationSortOrder = 'CREATED_AT' | 'CREATED_AT_DESC' | 'UPDATED_AT' | 'UPDATED_AT_DESC';

/**
 * Where a conversation stands in a sort order: the time it is sorted by (ISO 8601, as the index holds it) and its
 * id (32 hex), which breaks ties. A page can go on after a position whose conversation is gone meanwhile.
 */
export interface ListingPosition {
  at: string;
  id: string;
}

/**
 * Lists and counts conversations from an index instead of reading every conversation (replicas: the
 * PostgreSQL conversations table, kept current by every meta.json write). Ids are 32 hex digits.
 */
export interface ConversationListing {
  /**
   * One page: the ids in `sortOrder`, from `startAt` (inclusive; ignored when unknown) or else strictly after
   * `after`, the next page's first id, and `end`, the position of the page's last id (given with `next`).
   */
  page(query: {
    status?: string | undefined;
    /** The `q` filter: a case-insensitive substring of the title or the id. */
    query?: string | undefined;
    sortOrder: ConversationSortOrder;
    startAt?: string | undefined;
    after?: ListingPosition | undefined;
    limit: number;
  }): Promise<{ ids: string[]; next?: string; end?: ListingPosition }>;
  count(status?: string, query?: string): Promise<number>;
}
