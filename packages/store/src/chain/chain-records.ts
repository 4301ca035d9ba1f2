import { z } from 'zod';
import { padIndex } from '../event-log/file-names.js';
import { isFileNotFound } from '../event-log/is-file-not-found.js';
import type { FileStore } from '../file-store.js';

/**
 * Records an `EventLog` keeps outside `.slots`, in `<dir>/.chain/` (a directory the reference ignores, as it
 * ignores `.slots`), so that stripping the slot claims or cutting the log short does not pass as an
 * unchained or shorter log:
 *
 * - the **anchor** (`anchor.json`), written once, by the append that starts the chain (before its claim): the
 *   log is chained from that index on, so an event there or after without a link had its claim removed;
 * - **head records** (`head-{length:05d}.json`), written when a log that appended closes: the length it had and
 *   the link hash of its last event, so a log found shorter, or whose last recorded event's link differs, was
 *   truncated or rewritten. One file per length, created with create-if-absent: writers that close
 *   concurrently never overwrite each other and the longest record wins, so the head only moves forward.
 *
 * Unsigned, both can be rewritten by whoever can rewrite the log: only a signed head (see `signChainHead`)
 * holds against an attacker who rewrites everything consistently.
 */
export const chainAnchorSchema = z.object({
  /** The index of the chain's first event (0 for a log x started; later when x continued a reference log). */
  chainedFrom: z.number().int().nonnegative(),
});
export type ChainAnchor = z.infer<typeof chainAnchorSchema>;

export const headRecordSchema = z.object({
  /** Number of events the log had (indices 0 … length-1). */
  length: z.number().int().positive(),
  /** The id of the event at `length - 1`. */
  id: z.string(),
  /** The link hash of the event at `length - 1`. */
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});
export type HeadRecord = z.infer<typeof headRecordSchema>;

const HEAD_NAME = /(?:^|\/)head-(\d{5,})\.json$/;

export function chainAnchorPath(dir: string): string {
  return `${dir}/.chain/anchor.json`;
}

export function headRecordPath(dir: string, length: number): string {
  return `${dir}/.chain/head-${padIndex(length)}.json`;
}

/** Writes the anchor unless there is one (the first writer's index stands). */
export async function writeChainAnchor(store: FileStore, dir: string, chainedFrom: number): Promise<void> {
  await store.writeIfAbsent(chainAnchorPath(dir), `${JSON.stringify({ chainedFrom })}\n`);
}

/**
 * Writes the head record for `head.length` unless a record as long or longer exists (another writer closed after
 * more appends), then drops shorter records. Two writers racing may each leave theirs; the longest still wins.
 */
export async function writeHeadRecord(store: FileStore, dir: string, head: HeadRecord): Promise<void> {
  const lengths = (await store.list(`${dir}/.chain`))
    .map((path) => ({ path, match: HEAD_NAME.exec(path) }))
    .filter((entry): entry is { path: string; match: RegExpExecArray } => entry.match !== null)
    .map(({ path, match }) => ({ path, length: Number(match[1]) }));
  if (lengths.some(({ length }) => length >= head.length)) return;
  await store.writeIfAbsent(headRecordPath(dir, head.length), `${JSON.stringify(head)}\n`);
  for (const { path, length } of lengths) if (length < head.length) await store.delete(path);
}

/** What `<dir>/.chain/` holds: the anchor and the longest head record, or what cannot be read there. */
export interface ChainRecords {
  readonly anchor: ChainAnchor | undefined;
  readonly head: HeadRecord | undefined;
  /** A record that exists but cannot be read or is not one, with why. */
  readonly problem: string | undefined;
}

export async function readChainRecords(store: FileStore, dir: string): Promise<ChainRecords> {
  const heads = (await store.list(`${dir}/.chain`))
    .map((path) => ({ path, match: HEAD_NAME.exec(path) }))
    .filter((entry): entry is { path: string; match: RegExpExecArray } => entry.match !== null)
    .sort((a, b) => Number(b.match[1]) - Number(a.match[1]));
  const anchor = await readRecord(store, chainAnchorPath(dir), chainAnchorSchema);
  const head = heads[0] === undefined ? { value: undefined } : await readRecord(store, heads[0].path, headRecordSchema);
  if (head.value !== undefined && head.value.length !== Number(heads[0]!.match[1])) {
    return {
      anchor: anchor.value,
      head: undefined,
      problem: `${store.describe(heads[0]!.path)} records ${head.value.length} events, not what its name says`,
    };
  }
  return { anchor: anchor.value, head: head.value, problem: anchor.problem ?? head.problem };
}

async function readRecord<T>(
  store: FileStore,
  path: string,
  schema: z.ZodType<T>,
): Promise<{ value: T | undefined; problem?: string }> {
  let text: string;
  try {
    text = await store.read(path);
  } catch (error) {
    if (isFileNotFound(error)) return { value: undefined };
    return { value: undefined, problem: `${store.describe(path)} cannot be read: ${(error as Error).message}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { value: undefined, problem: `${store.describe(path)} is not JSON` };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      value: undefined,
      problem: `${store.describe(path)}: ${issue?.path.join('.') || '(root)'} ${issue?.message}`,
    };
  }
  return { value: parsed.data };
}
