export {
  applyFrames,
  type ConnectionStatus,
  type ConversationSnapshot,
  initialConversationSnapshot,
  prependEvents,
  type StreamFrame,
} from './conversation-snapshot.js';
export { ConversationStore, type ConversationStoreOptions } from './conversation-store.js';
export { type UseConversationOptions, type UseConversationResult, useConversation } from './use-conversation.js';
