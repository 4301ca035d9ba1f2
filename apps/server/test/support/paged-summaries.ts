import type { McpConversationPage, McpConversationSummary, McpListPosition } from '../../src/faces/mcp/mcp-host.js';

/**
 * `McpConversationHost.page` over a fixed list of summaries, for hosts made up by tests: a page goes on after the
 * conversation `after` names (nothing when it is gone: these lists do not change while paged).
 */
export function pageOf(
  summaries: readonly McpConversationSummary[],
  request: { after?: McpListPosition | undefined; limit: number },
): McpConversationPage {
  const found = request.after === undefined ? -1 : summaries.findIndex((s) => s.conversation_id === request.after?.id);
  if (request.after !== undefined && found < 0) return { conversations: [] };
  const start = found + 1;
  const conversations = summaries.slice(start, start + request.limit);
  const last = conversations.at(-1);
  return start + request.limit < summaries.length && last !== undefined
    ? { conversations, next: { at: '', id: last.conversation_id } }
    : { conversations };
}
