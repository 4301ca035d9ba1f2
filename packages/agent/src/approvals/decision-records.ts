import type { FileStore } from '@x/store';
import { z } from 'zod';
import { zodProblems } from '../internal/zod-problems.js';
import { type DecisionRecord, decisionRecordSchema } from './decision.js';
import { DecisionRecordDamagedError } from './errors/decision-record-damaged-error.js';

/** Where the records live: beside the event files, in a directory the reference ignores (like `.chain/`). */
export function decisionRecordPath(conversationDirectory: string, actionId: string): string {
  return `${conversationDirectory}/events/.decisions/${encodeURIComponent(actionId)}.json`;
}

/**
 * An edit in progress: written before the original call is answered and removed once the call with the edited
 * arguments is in the log, so a crash between the two leaves a trace the next run finishes from.
 */
export function editOutboxPath(conversationDirectory: string, replacementActionId: string): string {
  return `${conversationDirectory}/events/.decisions/edits/${encodeURIComponent(replacementActionId)}.json`;
}

/** An outbox entry (see `editOutboxPath`): the call whose arguments were edited. */
const editOutboxEntrySchema = z.object({ original_action_id: z.string().min(1) });

/**
 * The original action of the outbox entry at `path`; `DecisionRecordDamagedError` (naming the path and why) for
 * one that is not JSON or names none: a bare `SyntaxError` at every run would stop the conversation for good
 * without saying which file is at fault.
 */
export async function readEditOutboxEntry(store: FileStore, path: string): Promise<string> {
  const value = parseRecordJson(store, path, await store.read(path));
  const parsed = editOutboxEntrySchema.safeParse(value);
  if (!parsed.success) throw new DecisionRecordDamagedError(store.describe(path), zodProblems(parsed.error));
  return parsed.data.original_action_id;
}

/**
 * Writes `record` unless a decision for the action is already there (`writeIfAbsent`: of two writers, in one
 * process or on two replicas sharing the store, exactly one creates the file). Returns the record that holds.
 */
export async function claimDecision(
  store: FileStore,
  conversationDirectory: string,
  record: DecisionRecord,
): Promise<{ created: boolean; record: DecisionRecord }> {
  const path = decisionRecordPath(conversationDirectory, record.action_id);
  if (await store.writeIfAbsent(path, `${JSON.stringify(record)}\n`)) return { created: true, record };
  const existing = await readDecision(store, conversationDirectory, record.action_id);
  // Another writer's record that is gone when read back (removed between the two calls): the action is neither
  // decided nor safely undecided, as with a record that does not parse.
  if (existing === undefined) {
    throw new DecisionRecordDamagedError(store.describe(path), 'another writer created it, and it was gone when read');
  }
  return { created: false, record: existing };
}

/**
 * The recorded decision for an action, or undefined. A record that does not parse is `DecisionRecordDamagedError`
 * (named by path and why), never a bare `SyntaxError`.
 */
export async function readDecision(
  store: FileStore,
  conversationDirectory: string,
  actionId: string,
): Promise<DecisionRecord | undefined> {
  const path = decisionRecordPath(conversationDirectory, actionId);
  if (!(await store.exists(path))) return undefined;
  const value = parseRecordJson(store, path, await store.read(path));
  const parsed = decisionRecordSchema.safeParse(value);
  if (!parsed.success) throw new DecisionRecordDamagedError(store.describe(path), zodProblems(parsed.error));
  return parsed.data;
}

function parseRecordJson(store: FileStore, path: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DecisionRecordDamagedError(store.describe(path), `not JSON (${(error as Error).message})`, {
      cause: error,
    });
  }
}
