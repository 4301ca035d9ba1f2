import type { ConversationBranches } from '../api/insight-api.js';

/** A node of the tree picture: a conversation, a branch segment of one, or a sub-agent's conversation. */
export interface GraphNode {
  key: string;
  kind: 'conversation' | 'segment' | 'sub';
  label: string;
  /** Where clicking the node goes (a viewer fragment). */
  href: string;
  /** The full text for the tooltip. */
  title: string;
  /** The node the page is showing (the current conversation) or HEAD's branch. */
  current: boolean;
}

export interface GraphEdge {
  from: string;
  to: string;
  kind: 'contains' | 'branch' | 'fork' | 'delegate';
}

export interface FamilyGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

const enc = encodeURIComponent;
const short = (id: string) => id.slice(0, 8);

/**
 * The picture of a conversation family as a tree: every conversation (the root, its forks and theirs) with its
 * branch segments under it, forks hanging from the segment they were forked at, and sub-agent conversations
 * under the conversation that delegated to them. Every node has one parent, so the layout is a plain tree.
 * `conversations` holds every loaded conversation; `currentId` is the one on screen.
 */
export function familyGraph(conversations: readonly ConversationBranches[], currentId: string): FamilyGraph {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const loaded = new Set(conversations.map((conversation) => conversation.conversation_id));
  for (const conversation of conversations) {
    const id = conversation.conversation_id;
    const conversationKey = `c:${id}`;
    const isCurrent = id === currentId;
    nodes.push({
      key: conversationKey,
      kind: 'conversation',
      label: conversation.title ?? `Conversation ${short(id)}`,
      href: `#/c/${enc(id)}`,
      title: `${conversation.title ?? 'Conversation'} ${id} (${conversation.execution_status})`,
      current: isCurrent,
    });
    if (conversation.forked_from_conversation_id !== null && loaded.has(conversation.forked_from_conversation_id)) {
      const source = conversations.find((other) => other.conversation_id === conversation.forked_from_conversation_id);
      const segmentId = source?.forks.find((fork) => fork.conversation_id === id)?.segment_id ?? null;
      const from =
        segmentId === null
          ? `c:${conversation.forked_from_conversation_id}`
          : `s:${source?.conversation_id}:${segmentId}`;
      edges.push({ from, to: conversationKey, kind: 'fork' });
    }
    for (const segment of conversation.segments) {
      const key = `s:${id}:${segment.id}`;
      const count = `${segment.event_count} event${segment.event_count === 1 ? '' : 's'}`;
      nodes.push({
        key,
        kind: 'segment',
        label: segment.label,
        href: `#/c/${enc(id)}/e/${enc(segment.last_event_id)}`,
        title: `${segment.label} (${count}${segment.active ? ', HEAD branch' : ''}; ends at ${segment.last_event_id})`,
        current: isCurrent && segment.active,
      });
      edges.push({
        from: segment.parent_segment_id === null ? conversationKey : `s:${id}:${segment.parent_segment_id}`,
        to: key,
        kind: segment.parent_segment_id === null ? 'contains' : 'branch',
      });
    }
    for (const sub of conversation.sub_conversations) {
      const events = sub.segments.reduce((sum, segment) => sum + segment.event_count, 0);
      const key = `sub:${id}:${sub.conversation_id}`;
      nodes.push({
        key,
        kind: 'sub',
        label: `Sub-agent ${short(sub.conversation_id)}`,
        href: `#/c/${enc(id)}/sub/${enc(sub.conversation_id)}`,
        title: `Sub-agent conversation ${sub.conversation_id} (${events} events)`,
        current: false,
      });
      edges.push({ from: conversationKey, to: key, kind: 'delegate' });
    }
  }
  return { nodes, edges };
}
