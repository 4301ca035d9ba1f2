import type { ManagedConversation } from '../conversations/managed-conversation.js';

/** The title a listing shows: meta.json's, else the one recorded in the conversation's state. */
async function titleOf(conversation: ManagedConversation): Promise<string> {
  if (typeof conversation.meta.title === 'string') return conversation.meta.title;
  return (await conversation.open()).state.title ?? '';
}

/**
 * The conversations whose title or id (hyphenated or as 32 hex) contains `query`, ignoring case: the `q` filter of
 * search and count (an x addition; the reference filters by status only). A conversation without a title in its
 * meta.json is opened to read the title recorded in its state; one that cannot be opened is left out (`skip`).
 */
export async function filterByQuery(
  all: ManagedConversation[],
  query: string | undefined,
  skip: (conversation: ManagedConversation, error: unknown) => undefined,
): Promise<ManagedConversation[]> {
  const needle = query?.trim().toLowerCase() ?? '';
  if (needle === '') return all;
  const matches = await Promise.all(
    all.map(async (conversation) => {
      if (conversation.id.includes(needle) || conversation.hex.includes(needle)) return true;
      try {
        return (await titleOf(conversation)).toLowerCase().includes(needle);
      } catch (error) {
        return skip(conversation, error) ?? false;
      }
    }),
  );
  return all.filter((_, index) => matches[index]);
}
