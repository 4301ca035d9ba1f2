import type { FileStore } from '@x/store';
import { hyphenateConversationId } from '../conversation/persistence-layout.js';

/** Folder of a conversation's children inside its directory (the reference's layout: `<parent>/subagents/<child>`). */
export const SUBAGENTS_DIR = 'subagents';

/** `<parent directory>/subagents`: where the sub-conversations of a conversation are persisted. */
export function subConversationsDirectory(parentDirectory: string): string {
  return `${parentDirectory}/${SUBAGENTS_DIR}`;
}

/**
 * The ids (hyphenated) of the sub-conversations persisted beside a conversation, sorted. This is the
 * `sub_conversation_ids` of the conversation's info; it is derived from the layout, so nothing beyond the
 * reference's files records it.
 */
export async function listSubConversationIds(store: FileStore, parentDirectory: string): Promise<string[]> {
  const entries = await store.list(`${subConversationsDirectory(parentDirectory)}/`);
  return entries
    .filter((entry) => entry.endsWith('/'))
    .map((entry) => entry.slice(0, -1).split('/').pop() ?? '')
    .filter((name) => /^[0-9a-f]{32}$/.test(name))
    .map((name) => hyphenateConversationId(name));
}
