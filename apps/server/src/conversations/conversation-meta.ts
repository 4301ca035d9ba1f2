import type { FileStore } from '@x/store';
import { z } from 'zod';
import { storedAgentRequestSchema } from '../api/request-schemas.js';
import { completeReferenceMeta } from './reference-stored-conversation.js';

/**
 * meta.json: the server's record of a conversation (the reference's StoredConversation, reduced to what
 * we use). The agent config is the start request's, with `llm.api_key` encrypted (server secret key) or
 * redacted, so the conversation can be reopened after a restart without the client.
 */
export const conversationMetaSchema = z.looseObject({
  /** 32 hex digits. */
  id: z.string().regex(/^[0-9a-f]{32}$/),
  title: z.string().nullish(),
  /** The title last recorded in the conversation's state (generated): what listings match `q` against without opening it. */
  state_title: z.string().nullish(),
  tags: z.record(z.string(), z.string()).default({}),
  created_at: z.string(),
  updated_at: z.string(),
  agent: storedAgentRequestSchema,
  workspace: z.object({ working_dir: z.string() }),
  max_iterations: z.number().int().min(1).default(500),
  stuck_detection: z.boolean().default(true),
  /** Names of the conversation's secrets (values live encrypted or redacted in base_state.json). */
  secret_names: z.array(z.string()).default([]),
  /**
   * Last execution status seen by the server: lets listings filter by status without opening every
   * conversation, and flags the conversations a crash left `running` (recovered when opened).
   */
  execution_status: z.string().default('idle'),
  /**
   * The `timestamp` of the log's last event as the server last saw it: lets listings order conversations by their
   * latest change (A2A `ListTasks`) without opening them. Absent in files written before it was kept.
   */
  last_event_at: z.string().optional(),
  /** The start request's hook_config (the reference's StoredConversation keeps it too). */
  hook_config: z.record(z.string(), z.unknown()).nullish(),
  /** The reference's security analyzer JSON last set with `POST .../security_analyzer` (null: none). */
  security_analyzer: z.looseObject({ kind: z.string() }).nullish(),
  /** Fork provenance (reference StoredConversation): hyphenated source id and the `from_event_id`. */
  forked_from_conversation_id: z.string().nullish(),
  forked_from_event_id: z.string().nullish(),
  /** The start request's sandbox policy (x only); the policy actually used is recorded in x_sandbox_policy.json. */
  sandbox: z.record(z.string(), z.unknown()).nullish(),
  /** The start request's `workspace_checkpoints`: resumes keep capturing (and restoring) the workspace. */
  workspace_checkpoints: z.boolean().default(false),
  /** The start request's approval rules (x only), validated again when the conversation is opened. */
  approval_rules: z.array(z.record(z.string(), z.unknown())).nullish(),
  /** The create body's `agents` (handoff targets), each stored as `agent` is (its key encrypted or redacted). */
  agents: z.record(z.string(), storedAgentRequestSchema).nullish(),
});
export type ConversationMeta = z.infer<typeof conversationMetaSchema>;

export function metaPath(hex: string): string {
  return `${hex}/meta.json`;
}

/**
 * Reads and validates meta.json; `undefined` when the directory has none (not a server conversation). One the
 * reference server wrote (no agent) is completed from base_state.json.
 */
export async function readConversationMeta(store: FileStore, hex: string): Promise<ConversationMeta | undefined> {
  if (!(await store.exists(metaPath(hex)))) return undefined;
  const text = await store.read(metaPath(hex));
  return conversationMetaSchema.parse(await completeReferenceMeta(store, hex, JSON.parse(text)));
}

export async function writeConversationMeta(store: FileStore, meta: ConversationMeta): Promise<void> {
  await store.write(metaPath(meta.id), JSON.stringify(meta));
}

/** A file a face keeps beside a conversation's own, outside the reference's files (the A2A face's `x_a2a_parts.json`). */
const SIDE_FILE = /^x_[a-z0-9_]+\.json$/;

/**
 * A fork's meta.json, written after the faces' side files of its source are copied to it (their entries name events
 * by id, which a fork keeps), so the fork is listed only once it has them. A side file the library's fork already
 * wrote is the fork's own and is kept: `x_budget.json` holds what is left of the source's budget, and the source's
 * copied over it would give the fork the whole budget again.
 */
export async function writeForkMeta(store: FileStore, sourceHex: string, meta: ConversationMeta): Promise<void> {
  for (const path of await store.list(sourceHex)) {
    const name = path.slice(sourceHex.length + 1);
    const target = `${meta.id}/${name}`;
    if (SIDE_FILE.test(name) && !(await store.exists(target))) await store.copy(path, target);
  }
  await writeConversationMeta(store, meta);
}

/** The reference's datetime form for API timestamps: ISO 8601 with the offset (UTC). */
export function nowIso(): string {
  return new Date().toISOString().replace('Z', '+00:00');
}
