import type { AnyEvent } from '@x/events';
import { createLocalFileStore, EventLog, type FileStore, StoreError } from '@x/store';
import { z } from 'zod';
import type { ConversationSource } from './resolve-conversation.js';

/** What the read-only commands use of base_state.json (ours or the reference's). */
const baseStateSchema = z.looseObject({
  id: z.string().optional(),
  execution_status: z.string().optional(),
  confirmation_policy: z.looseObject({ kind: z.string() }).optional(),
  max_iterations: z.number().optional(),
  stats: z.unknown().optional(),
  agent: z
    .looseObject({ llm: z.looseObject({ model: z.string().optional() }).optional(), condenser: z.unknown().optional() })
    .optional(),
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
  /**
   * What could not be read while opening (a damaged base_state.json, an unreadable slot claim, a gap
   * in the event files), one message each naming the file. Commands print them to stderr.
   */
  problems: string[];
}

/** An event file that could not be read, for the report on stderr. */
export interface DamagedEvent {
  index: number;
  location: string;
  /** The store's error code, e.g. `corrupt_event`, `not_regular_file`, `invalid_path`. */
  code: string;
  message: string;
}

export async function openConversation(source: ConversationSource): Promise<ConversationRecord> {
  const store = createLocalFileStore({ root: source.parentDir, durability: 'none' });
  const problems: string[] = [];
  // Read-only commands never write to the directory: an existing name index and packs are used, none is
  // written, and an event a crashed writer committed only in its slot claim is read from the claim.
  const log = await EventLog.open(store, {
    dir: `${source.name}/events`,
    logger: { warn: (m) => problems.push(m) },
    packs: { write: false },
    nameIndex: { write: false },
    rollForward: false,
  });
  const { baseState, problem } = await readBaseState(store, `${source.name}/base_state.json`);
  if (problem !== undefined) problems.push(problem);
  return {
    source,
    id: baseState?.id ?? source.name,
    log,
    baseState,
    writtenByReference: baseState !== undefined && baseState.agent_state?.x_state === undefined,
    problems,
  };
}

/** base_state.json if it is there and valid; otherwise why not (missing is no problem: the events suffice). */
async function readBaseState(store: FileStore, path: string): Promise<{ baseState?: BaseStateInfo; problem?: string }> {
  const where = store.describe(path);
  let text: string;
  try {
    if (!(await store.exists(path))) return {};
    text = await store.read(path);
  } catch (error) {
    if (!StoreError.isInstance(error)) throw error;
    if (error.code === 'file_not_found') return {};
    return { problem: `${where} could not be read: ${error.message}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    return { problem: `${where} is not valid JSON: ${(cause as Error).message}` };
  }
  const parsed = baseStateSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { problem: `${where}: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}` };
  }
  return { baseState: parsed.data };
}

/** The slice bounds of events `[from, to]` (inclusive; `to` defaults to the last). */
function bounds(record: ConversationRecord, range: { from?: number; to?: number }): [number, number] {
  const from = Math.max(0, range.from ?? 0);
  const end = Math.min(record.log.length, range.to === undefined ? record.log.length : range.to + 1);
  return [from, Math.max(from, end)];
}

/** Events `[from, to]`; the first unreadable one fails the whole read (for output that must be complete). */
export async function readEvents(
  record: ConversationRecord,
  range: { from?: number; to?: number } = {},
): Promise<AnyEvent[]> {
  const [from, end] = bounds(record, range);
  if (end <= from) return [];
  return record.log.range(from, end);
}

/** Events `[from, to]` that could be read, with their indices, and the ones that could not. */
export async function readEventsSettled(
  record: ConversationRecord,
  range: { from?: number; to?: number } = {},
): Promise<{ entries: { index: number; event: AnyEvent }[]; damaged: DamagedEvent[] }> {
  const [from, end] = bounds(record, range);
  const entries: { index: number; event: AnyEvent }[] = [];
  const damaged: DamagedEvent[] = [];
  if (end <= from) return { entries, damaged };
  for (const entry of await record.log.rangeSettled(from, end)) {
    if (entry.event !== undefined) entries.push({ index: entry.index, event: entry.event });
    else {
      damaged.push({
        index: entry.index,
        location: entry.location,
        code: entry.error.code,
        message: entry.error.message,
      });
    }
  }
  return { entries, damaged };
}
