export {
  type BranchComparison,
  type ComparableConversation,
  type ComparedAction,
  type ConversationComparison,
  compareConversations,
} from './compare-conversations.js';
export { diffManifests, type FileChanges } from './manifest-diff.js';
