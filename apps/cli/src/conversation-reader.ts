import type { AnyEvent } from '@x/events';
import { createLocalFileStore, EventLog } from '@x/store';
import { z } from 'zod';
import { CliError } from './errors.js';
import type { ConversationSource } from './resolve-conversation.js';

/** What the read-only commands use of base_state.json (ours or the reference's). */
const baseStateSchema = z.looseObject({
  id: z.string().optional(),
  execution_status: z.string().optional(),
  confirmation_policy: z.looseObject({ kind: z.string() }).optional(),
  max_iterations: z.number().optional(),
  stats: z.unknown().optional(),
  agent: z.looseObject({ llm: z.looseObject({ model: z.string().optional() }).optional() }).optional(),
  workspace: z.looseObject({ working_dir: z.string().optional() }).optional(),
  agent_state: z.looseObject({ x_state: z.unknown().optional() }).optional(),
  /** HEAD of the conversation tree (reference §7.7); readers show the branch that ends there. */
  leaf_event_id: z.string().nullish(),
  head_is_empty: z.boolean().optional(),
});
export type BaseStateInfo = z.infer<typeof baseStateSchema>;

/** A conversation opened for reading: nothing is written to its directory. */
export interface ConversationRecord {
  source: ConversationSource;
  /** Conversation id: base_state.json's, else the directory name. */
  id: string;
  log: EventLog;
  baseState: BaseStateInfo | undefined;
  /** True when base_state.json was written by the Python reference (its status is then authoritative). */
  writtenByReference: boolean;
}

export async function openConversation(source: ConversationSource): Promise<ConversationRecord> {
  const store = createLocalFileStore({ root: source.parentDir, durability: 'none' });
  const log = await EventLog.open(store, { dir: `${source.name}/events` });
  let baseState: BaseStateInfo | undefined;
  const basePath = `${source.name}/base_state.json`;
  if (await store.exists(basePath)) {
    const where = store.describe(basePath);
    let json: unknown;
    try {
      json = JSON.parse(await store.read(basePath));
    } catch (cause) {
      throw new CliError('corrupt_base_state', `${where} is not valid JSON: ${(cause as Error).message}`, { cause });
    }
    const parsed = baseStateSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new CliError(
        'corrupt_base_state',
        `${where}: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`,
      );
    }
    baseState = parsed.data;
  }
  return {
    source,
    id: baseState?.id ?? source.name,
    log,
    baseState,
    writtenByReference: baseState !== undefined && baseState.agent_state?.x_state === undefined,
  };
}

/** Events `[from, to]` (inclusive; `to` defaults to the last). */
export async function readEvents(
  record: ConversationRecord,
  range: { from?: number; to?: number } = {},
): Promise<AnyEvent[]> {
  const from = Math.max(0, range.from ?? 0);
  const end = Math.min(record.log.length, range.to === undefined ? record.log.length : range.to + 1);
  if (end <= from) return [];
  return record.log.range(from, end);
}
