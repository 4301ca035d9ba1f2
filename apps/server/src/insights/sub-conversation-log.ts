import { subConversationsDirectory } from '@x/agent';
import type { AnyEvent } from '@x/events';
import { EventLog, type FileStore } from '@x/store';

/**
 * A sub-agent's conversation log (`<parent>/subagents/<child>/events`), read without writing anything (no
 * index, no packs, no roll-forward): it belongs to the parent's run, which may still be appending to it.
 */
export async function readSubConversationEvents(
  store: FileStore,
  parentHex: string,
  childId: string,
): Promise<AnyEvent[]> {
  const childHex = childId.replace(/-/g, '').toLowerCase();
  const log = await EventLog.open(store, {
    dir: `${subConversationsDirectory(parentHex)}/${childHex}/events`,
    packs: { write: false },
    nameIndex: { write: false },
    rollForward: false,
  });
  return log.length === 0 ? [] : log.range(0, log.length);
}
