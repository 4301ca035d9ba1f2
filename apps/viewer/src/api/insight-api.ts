import { request } from './api-client.js';
import type { EventJson } from './types.js';

/** A run of events with no fork in it (the server's `branches` route). */
export interface BranchSegment {
  id: string;
  parent_segment_id: string | null;
  first_event_id: string;
  last_event_id: string;
  event_count: number;
  label: string;
  active: boolean;
}

export interface ConversationTree {
  conversation_id: string;
  leaf_event_id: string | null;
  segments: BranchSegment[];
}

export interface ConversationBranches extends ConversationTree {
  title: string | null;
  execution_status: string;
  forked_from_conversation_id: string | null;
  forked_from_event_id: string | null;
  forks: { conversation_id: string; from_event_id: string | null; segment_id: string | null }[];
  sub_conversations: ConversationTree[];
}

/** One LLM response: its tokens and cost (USD), from the `stats` update that recorded it. */
export interface StepUsage {
  step: number;
  usage_id: string;
  model: string;
  response_id: string | null;
  event_id: string;
  prompt_tokens: number;
  completion_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  cost: number;
}

export interface PromotedCase {
  case: Record<string, unknown>;
  suite: Record<string, unknown>;
  file_name: string;
}

const enc = encodeURIComponent;

/** x's own routes behind the viewer's graph, chart and "promote to eval case" button. */
export const insightApi = {
  branches: (id: string) => request<ConversationBranches>('GET', `/api/conversations/${enc(id)}/branches`),
  steps: (id: string) =>
    request<{ conversation_id: string; steps: StepUsage[] }>('GET', `/api/conversations/${enc(id)}/steps`),
  subConversationEvents: (id: string, subId: string) =>
    request<{ conversation_id: string; parent_conversation_id: string; items: EventJson[] }>(
      'GET',
      `/api/conversations/${enc(id)}/sub_conversations/${enc(subId)}/events`,
    ),
  promote: (id: string) => request<PromotedCase>('POST', `/api/conversations/${enc(id)}/eval_case`, {}),
};
