import type { ManagedConversation } from '../../conversations/managed-conversation.js';
import type { McpConversationSummary } from './mcp-host.js';

/**
 * A conversation as a listing page shows it, opening nothing: an open one's live status and title (meta.json may
 * lag a status folded from an event), else what its meta.json records (what the index lists and filters by).
 * Undefined for one gone since the index was read, or found damaged when opened (listings leave it out).
 */
export function listedSummary(conversation: ManagedConversation | undefined): McpConversationSummary | undefined {
  if (conversation === undefined || conversation.isDamaged || conversation.isDeleted) return undefined;
  const { meta } = conversation;
  // Read from the open conversation without `open()`, which would keep it from being released when idle.
  const live = conversation.isOpen ? conversation.fullState() : undefined;
  const status = typeof live?.execution_status === 'string' ? live.execution_status : meta.execution_status;
  const title = typeof live?.title === 'string' ? live.title : (meta.title ?? meta.state_title ?? undefined);
  return {
    conversation_id: conversation.id,
    status,
    ...(title === undefined ? {} : { title }),
  };
}
