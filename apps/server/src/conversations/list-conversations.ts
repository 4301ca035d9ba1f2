import type { FileStore } from '@x/store';
import type { ManagedConversation } from './managed-conversation.js';

const HEX = /^[0-9a-f]{32}$/i;

/** The ids (hex, lower case) of the conversation directories at the root of the store; nothing inside is read. */
export async function listConversationDirectories(store: FileStore): Promise<string[]> {
  const hexes: string[] = [];
  for (const entry of await store.list('')) {
    const hex = entry.endsWith('/') ? entry.slice(0, -1).toLowerCase() : undefined;
    if (hex !== undefined && HEX.test(hex)) hexes.push(hex);
  }
  return hexes;
}

/** The conversations of `hexes` that `get` finds (those with a readable meta.json), in order. */
export async function loadConversations(
  hexes: readonly string[],
  get: (hex: string) => Promise<ManagedConversation | undefined>,
): Promise<ManagedConversation[]> {
  const all: ManagedConversation[] = [];
  // Bounded parallelism: S3 reads are slow one by one, but thousands at once would exhaust sockets.
  for (let start = 0; start < hexes.length; start += 32) {
    const batch = await Promise.all(hexes.slice(start, start + 32).map((hex) => get(hex)));
    for (const conversation of batch) if (conversation !== undefined) all.push(conversation);
  }
  return all;
}
