/** The server's sort orders (reference `ConversationSortOrder`). */
export type ConversationSortOrder = 'CREATED_AT' | 'CREATED_AT_DESC' | 'UPDATED_AT' | 'UPDATED_AT_DESC';

/**
 * Lists and counts conversations from an index instead of reading every conversation (replicas: the
 * PostgreSQL conversations table, kept current by every meta.json write). Ids are 32 hex digits.
 */
export interface ConversationListing {
  /** One page: the ids in `sortOrder`, from `startAt` (inclusive; ignored when unknown), and the next page's first id. */
  page(query: {
    status?: string | undefined;
    /** The `q` filter: a case-insensitive substring of the title or the id. */
    query?: string | undefined;
    sortOrder: ConversationSortOrder;
    startAt?: string | undefined;
    limit: number;
  }): Promise<{ ids: string[]; next?: string }>;
  count(status?: string, query?: string): Promise<number>;
}
