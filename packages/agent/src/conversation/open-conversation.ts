import { storeFor } from './conversation-defaults.js';
import type { ConversationOptions } from './conversation-options.js';
import { conversationDirName } from './persistence-layout.js';

/** `Conversation.open`: resumes the conversation `options.id` when its directory exists, else creates it. */
export async function openConversation<Opened>(
  options: ConversationOptions,
  ways: {
    create(options: ConversationOptions): Promise<Opened>;
    resume(id: string, options: Omit<ConversationOptions, 'id'>): Promise<Opened>;
  },
): Promise<Opened> {
  if (options.id === undefined) return ways.create(options);
  const store = storeFor(options);
  const dir = conversationDirName(options.id);
  if ((await store.exists(`${dir}/base_state.json`)) || (await store.exists(`${dir}/events`))) {
    return ways.resume(options.id, { ...options, store });
  }
  return ways.create({ ...options, store });
}
