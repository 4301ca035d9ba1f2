import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { AnyEvent } from '@x/events';
import { createLocalFileStore, EventLog } from '@x/store';
import { z } from 'zod';
import { defaultPersistenceDir } from '../conversation/persistence-layout.js';
import { EvalConversationNotFoundError } from './errors/eval-conversation-not-found-error.js';

/** A conversation read from its directory, for scoring or replaying. */
export interface RecordedConversation {
  /** The conversation directory. */
  location: string;
  /** base_state.json's id, else the directory name. */
  id: string;
  events: AnyEvent[];
  /** The workspace it ran in (base_state.json), to make its paths relative. */
  workspace: string | undefined;
  /** The condenser config its agent had (base_state.json), so a replay condenses where it did. */
  condenser: unknown;
}

const baseStateSchema = z.looseObject({
  id: z.string().optional(),
  agent: z.looseObject({ condenser: z.unknown().optional() }).optional(),
  workspace: z.looseObject({ working_dir: z.string().optional() }).optional(),
});

function isConversationDir(path: string): boolean {
  try {
    return (
      statSync(path).isDirectory() && (existsSync(join(path, 'events')) || existsSync(join(path, 'base_state.json')))
    );
  } catch {
    return false;
  }
}

/**
 * Finds a case's recorded conversation: a directory (relative to `directory`), else an id (hyphens optional)
 * in `persistenceDir` (default `$X_HOME/conversations`).
 */
export function locateConversation(
  reference: string,
  options: { caseId: string; directory?: string | undefined; persistenceDir?: string | undefined },
): string {
  const asPath = resolve(options.directory ?? process.cwd(), reference);
  const conversations = options.persistenceDir ?? defaultPersistenceDir();
  const byId = join(conversations, reference.replace(/-/g, '').toLowerCase());
  for (const candidate of [asPath, byId]) if (isConversationDir(candidate)) return candidate;
  throw new EvalConversationNotFoundError(options.caseId, reference, [asPath, byId]);
}

/** Reads a conversation directory without writing to it (no index, no packs, no roll-forward). */
export async function readRecordedConversation(location: string): Promise<RecordedConversation> {
  const store = createLocalFileStore({ root: dirname(location), durability: 'none' });
  const name = basename(location);
  const log = await EventLog.open(store, {
    dir: `${name}/events`,
    packs: { write: false },
    nameIndex: { write: false },
    rollForward: false,
  });
  let events: AnyEvent[];
  try {
    events = log.length === 0 ? [] : await log.range(0, log.length);
  } finally {
    // A segment-layout log holds its segment file open until closed (a read-only close writes nothing).
    await log.close();
  }
  let baseState: z.infer<typeof baseStateSchema> = {};
  if (await store.exists(`${name}/base_state.json`)) {
    try {
      const parsed = baseStateSchema.safeParse(JSON.parse(await store.read(`${name}/base_state.json`)));
      if (parsed.success) baseState = parsed.data;
    } catch {
      // A damaged base_state.json only loses the workspace and condenser hints: the events are the record.
    }
  }
  return {
    location,
    id: baseState.id ?? name,
    events,
    workspace: baseState.workspace?.working_dir,
    condenser: baseState.agent?.condenser,
  };
}
