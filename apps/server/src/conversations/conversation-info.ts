import { join } from 'node:path';
import {
  type Conversation,
  type ConversationState,
  combineMetrics,
  conversationDirName,
  emptyMetrics,
  type Metrics,
  type SandboxPolicy,
} from '@x/agent';
import { redactedAgentConfig } from './build-agent.js';
import { hookConfigInfo, hooksOfRequest } from './conversation-hooks.js';
import type { ConversationMeta } from './conversation-meta.js';

export interface ConversationInfoInput {
  meta: ConversationMeta;
  state: ConversationState;
  /** The agent as base_state.json stores it (secrets redacted). */
  agent: Record<string, unknown>;
  /** Where the server keeps conversations: a directory, or a database URL (without its password). */
  persistenceDir: string;
  secretNames: readonly string[];
  /** The reference's serialized HookConfig, or null. */
  hookConfig?: Record<string, unknown> | null;
  /** Ids of the sub-agents' conversations persisted beside this one. */
  subConversationIds?: readonly string[];
  /** The sandbox policy its processes run under (x only). */
  sandboxPolicy?: SandboxPolicy;
}

/** The combined metrics snapshot (all usage ids), or null before the first LLM call. */
function metricsOf(state: ConversationState): Record<string, unknown> | null {
  const entries = Object.entries(state.stats.usage_to_metrics);
  if (entries.length === 0) return null;
  const full: Record<string, Metrics> = {};
  for (const [usageId, snapshot] of entries) full[usageId] = { ...emptyMetrics(snapshot.model_name), ...snapshot };
  const {
    costs: _costs,
    response_latencies: _latencies,
    token_usages: _usages,
    ...snapshot
  } = combineMetrics({
    usage_to_metrics: full,
  });
  return snapshot;
}

/**
 * `persistence_dir` as the reference reports it: the conversation's own directory (`<root>/<id hex>`), which is
 * what its ConversationState records. A database-backed server has no directory: its URL is reported as it is.
 */
function persistenceDirOf(root: string, id: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(root) ? root : join(root, conversationDirName(id));
}

/**
 * ConversationInfo (reference §11.2): the ConversationState JSON plus server metadata, with every optional
 * field present as an explicit `null`, as the reference's REST responses are.
 */
export function conversationInfo(input: ConversationInfoInput): Record<string, unknown> {
  const { meta, state } = input;
  const secretSources: Record<string, unknown> = {};
  for (const name of input.secretNames) {
    secretSources[name] = { description: null, value: '**********', kind: 'StaticSecret' };
  }
  return {
    id: state.id,
    agent: input.agent,
    workspace: { working_dir: meta.workspace.working_dir, kind: 'LocalWorkspace' },
    persistence_dir: persistenceDirOf(input.persistenceDir, state.id),
    max_iterations: state.max_iterations,
    stuck_detection: state.stuck_detection,
    execution_status: state.execution_status,
    confirmation_policy: state.confirmation_policy,
    security_analyzer: meta.security_analyzer ?? null,
    activated_knowledge_skills: [],
    invoked_skills: [...(state.invoked_skills ?? [])],
    blocked_actions: state.blocked_actions ?? {},
    blocked_messages: state.blocked_messages ?? {},
    last_user_message_id: state.last_user_message_id ?? null,
    leaf_event_id: state.head_is_empty === true ? null : (state.leaf_event_id ?? null),
    stats: state.stats,
    secret_registry: { secret_sources: secretSources },
    agent_state: {},
    hook_config: input.hookConfig ?? null,
    tags: meta.tags,
    title: meta.title ?? state.title ?? null,
    metrics: metricsOf(state),
    created_at: meta.created_at,
    updated_at: meta.updated_at,
    forked_from_conversation_id: meta.forked_from_conversation_id ?? null,
    forked_from_event_id: meta.forked_from_event_id ?? null,
    parent_conversation_id: null,
    sub_conversation_ids: [...(input.subConversationIds ?? [])],
    current_model_id: null,
    available_models: [],
    supports_runtime_model_switch: false,
    launched_agent_profile: null,
    client_tools: [],
    // x only: what the conversation's processes run under (its history: x_sandbox_policy.json).
    sandbox: input.sandboxPolicy ?? null,
    // x only: how many log events this state reflects. A client resuming a stream by index gets this snapshot
    // before the replay, and must not let a replayed field update below it undo the state (@x/client).
    event_count: state.event_count,
  };
}

/** ConversationInfo of an open conversation as the server holds it (`meta`), its agent's secrets redacted. */
export function openConversationInfo(
  conversation: Conversation,
  meta: ConversationMeta,
  server: { persistenceDir: string; subConversationIds: readonly string[] },
): Record<string, unknown> {
  const agent: Record<string, unknown> = {
    ...conversation.agent.toJSON(),
    llm: { ...redactedAgentConfig(meta.agent).llm },
  };
  // As the reference: skill contents are left out of responses.
  if (agent.agent_context !== undefined) agent.agent_context = { ...(agent.agent_context as object), skills: [] };
  return conversationInfo({
    meta,
    state: conversation.state,
    agent,
    persistenceDir: server.persistenceDir,
    secretNames: meta.secret_names,
    hookConfig: hookConfigInfo(hooksOfRequest(meta.hook_config)),
    subConversationIds: server.subConversationIds,
    sandboxPolicy: conversation.sandboxPolicy,
  });
}
