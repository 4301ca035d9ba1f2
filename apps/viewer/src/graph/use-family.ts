import { useEffect, useState } from 'preact/hooks';
import { type ConversationBranches, insightApi } from '../api/insight-api.js';

/** At most this many conversations are fetched for one picture (each is one request). */
export const MAX_CONVERSATIONS = 24;

export interface Family {
  conversations: ConversationBranches[];
  error: string | undefined;
  /** More conversations are related than the picture fetched. */
  truncated: boolean;
}

/**
 * The conversation's family: up the fork chain to the root, then down every fork of every member, each with
 * its branch segments and sub-agents. Reloaded when `version` changes (a new event may have made a branch).
 */
export function useFamily(conversationId: string, version: unknown): Family {
  const [family, setFamily] = useState<Family>({ conversations: [], error: undefined, truncated: false });
  useEffect(() => {
    let cancelled = false;
    (async () => {
      const byId = new Map<string, ConversationBranches>();
      let truncated = false;
      const load = async (id: string) => {
        const known = byId.get(id);
        if (known !== undefined) return known;
        const branches = await insightApi.branches(id);
        byId.set(id, branches);
        return branches;
      };
      let root = await load(conversationId);
      while (root.forked_from_conversation_id !== null && byId.size < MAX_CONVERSATIONS) {
        const source = root.forked_from_conversation_id;
        if (byId.has(source)) break;
        try {
          root = await load(source);
        } catch {
          break; // the source was deleted: the fork is the root of what is left
        }
      }
      const queue = [root];
      const ordered: ConversationBranches[] = [];
      const seen = new Set<string>();
      while (queue.length > 0) {
        const next = queue.shift() as ConversationBranches;
        if (seen.has(next.conversation_id)) continue;
        seen.add(next.conversation_id);
        ordered.push(next);
        for (const fork of next.forks) {
          if (seen.has(fork.conversation_id)) continue;
          if (byId.size >= MAX_CONVERSATIONS && !byId.has(fork.conversation_id)) {
            truncated = true;
            continue;
          }
          try {
            queue.push(await load(fork.conversation_id));
          } catch {
            // deleted since the index listed it: left out
          }
        }
      }
      if (!cancelled) setFamily({ conversations: ordered, error: undefined, truncated });
    })().catch((caught: unknown) => {
      if (!cancelled) setFamily((current) => ({ ...current, error: (caught as Error).message }));
    });
    return () => {
      cancelled = true;
    };
  }, [conversationId, version]);
  return family;
}
