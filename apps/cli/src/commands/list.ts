import { lstatSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createLocalFileStore, type FileStore, StoreError } from '@x/store';
import type { CliContext } from '../context.js';
import { resolveDataDir } from '../data-dir.js';
import { ExitCode } from '../errors.js';
import { terminalText } from '../render/terminal-safe.js';
import { isConversationDir } from '../resolve-conversation.js';
import { subConversations } from '../sub-conversations.js';

interface Entry {
  id: string;
  status: string;
  events: number;
  updated_at: string;
  workspace?: string;
  location: string;
  /** Ids of the sub-agents' conversations persisted beside it. */
  sub_conversation_ids: string[];
}

/** Lists conversations from their directories alone (base_state.json and the event file names). */
export async function listCommand(context: CliContext, options: { dataDir?: string; json?: boolean }): Promise<number> {
  const dataDir = resolveDataDir(options.dataDir, context.env);
  const { output } = context;
  let names: string[] = [];
  try {
    names = readdirSync(dataDir).filter((name) => isConversationDir(join(dataDir, name)));
  } catch {
    names = [];
  }
  // Files are read through the store, so a FIFO, a link or a damaged file is reported, never followed or waited on.
  const store = names.length === 0 ? undefined : createLocalFileStore({ root: dataDir, durability: 'none' });
  const problems: string[] = [];
  const entries = (await Promise.all(names.map((name) => describe(store!, dataDir, name, problems)))).sort((a, b) =>
    b.updated_at.localeCompare(a.updated_at),
  );
  const ec = output.errorColors;
  const finish = (): number => {
    for (const problem of problems) output.error(`${ec.yellow('warning')} ${problem}`);
    return problems.length > 0 ? ExitCode.damaged : ExitCode.ok;
  };
  if (options.json === true) {
    for (const entry of entries) output.line(JSON.stringify(entry));
    return finish();
  }
  const c = output.colors;
  if (entries.length === 0) {
    output.error(output.errorColors.dim(`No conversations in ${dataDir} yet. Start one with \`x run --demo\`.`));
    return 0;
  }
  output.line(c.dim(`${entries.length} conversation${entries.length === 1 ? '' : 's'} in ${dataDir}`));
  for (const entry of entries) {
    const status =
      entry.status === 'finished' ? c.green : entry.status === 'error' || entry.status === 'stuck' ? c.red : c.yellow;
    output.line(
      `${c.cyan(handle(entry))}  ${status(terminalText(entry.status).padEnd(24))} ${String(entry.events).padStart(5)} events  ${c.dim(entry.updated_at.slice(0, 16).replace('T', ' '))}  ${c.dim(terminalText(entry.workspace ?? ''))}${entry.sub_conversation_ids.length === 0 ? '' : c.dim(` · ${entry.sub_conversation_ids.length} sub-agent(s)`)}`,
    );
  }
  return finish();
}

/**
 * What to type to open a listed conversation: a prefix of its id when its directory is named by the id (as
 * x and the reference name them), else the directory's name (a copied or renamed directory).
 */
function handle(entry: Entry): string {
  const name = basename(entry.location);
  return name === entry.id.replace(/-/g, '').toLowerCase() ? name.slice(0, 8) : terminalText(name);
}

async function describe(store: FileStore, dataDir: string, name: string, problems: string[]): Promise<Entry> {
  const location = join(dataDir, name);
  let base: { id?: unknown; execution_status?: unknown; workspace?: { working_dir?: unknown } } = {};
  const basePath = `${name}/base_state.json`;
  try {
    if (await store.exists(basePath)) base = JSON.parse(await store.read(basePath)) as typeof base;
  } catch (error) {
    // Listed with what the directory shows; the reason goes to stderr.
    const reason = StoreError.isInstance(error) ? error.message : `not valid JSON (${(error as Error).message})`;
    problems.push(`${join(location, 'base_state.json')}: ${reason}`);
  }
  if (typeof base !== 'object' || base === null) base = {};
  let events: string[] = [];
  try {
    events = (await store.list(`${name}/events`)).filter((file) => /\/event-\d{5,}-[^/]+\.json$/.test(file));
  } catch (error) {
    if (!StoreError.isInstance(error)) throw error;
    problems.push(`${join(location, 'events')}: ${error.message}`);
  }
  const workspace = typeof base.workspace?.working_dir === 'string' ? base.workspace.working_dir : undefined;
  return {
    id: typeof base.id === 'string' ? base.id : name,
    status: typeof base.execution_status === 'string' ? base.execution_status : 'unknown',
    events: events.length,
    updated_at: lstatSync(location).mtime.toISOString(),
    ...(workspace === undefined ? {} : { workspace }),
    location,
    sub_conversation_ids: subConversations(location).map((child) => child.id),
  };
}
