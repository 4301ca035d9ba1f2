/** An event as the server sends it (the reference's JSON). Fields are read defensively: all input is untrusted. */
export type EventJson = Record<string, unknown> & { id: string; kind: string; timestamp?: string; source?: string };

/** ConversationInfo (§11.2), the parts the viewer reads. */
export interface ConversationInfo {
  id: string;
  title?: string | null;
  execution_status?: string;
  created_at?: string;
  updated_at?: string;
  stats?: { usage_to_metrics?: Record<string, UsageMetrics> } | null;
  confirmation_policy?: { kind?: string } | null;
  leaf_event_id?: string | null;
  forked_from_conversation_id?: string | null;
  forked_from_event_id?: string | null;
  parent_conversation_id?: string | null;
  sub_conversation_ids?: string[] | null;
  [key: string]: unknown;
}

export interface UsageMetrics {
  model_name?: string;
  accumulated_cost?: number;
  accumulated_token_usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    cache_read_tokens?: number;
    cache_write_tokens?: number;
    reasoning_tokens?: number;
  } | null;
}

export interface Page<T> {
  items: T[];
  next_page_id: string | null;
}
