import type { FileStore } from '@x/store';
import { z } from 'zod';
import { zodProblems } from '../internal/zod-problems.js';
import { type SandboxPolicy, sandboxPolicySchema } from '../sandbox/sandbox-policy.js';
import { DamagedSandboxPolicyRecordError } from './damaged-sandbox-policy-record-error.js';

/**
 * `<conversation dir>/x_sandbox_policy.json`: the sandbox policies a conversation's tools ran under, oldest
 * first, so an audit shows what ran under which policy. x's own file beside base_state.json (the reference
 * neither reads nor knows it). A new entry is added when the conversation is opened with a policy different
 * from the last one; `since_event` is the log length at that moment (the events at and after it ran under it).
 */
export const SANDBOX_POLICY_FILE = 'x_sandbox_policy.json';

export const sandboxPolicyEntrySchema = z.object({
  policy: sandboxPolicySchema,
  /** Index of the first event appended under this policy. */
  since_event: z.number().int().nonnegative(),
  /** ISO 8601 time the policy was recorded. */
  recorded_at: z.string(),
});
export type SandboxPolicyEntry = z.infer<typeof sandboxPolicyEntrySchema>;

export const sandboxPolicyRecordSchema = z.object({
  version: z.literal(1),
  entries: z.array(sandboxPolicyEntrySchema).min(1),
});
export type SandboxPolicyRecord = z.infer<typeof sandboxPolicyRecordSchema>;

/**
 * The record of a conversation's directory; undefined when there is none (a conversation written before
 * sandboxing, or by the reference). One that does not parse is a `DamagedSandboxPolicyRecordError`, never taken for
 * none: the next write would otherwise replace the audit of what ran under which policy.
 */
export async function readSandboxPolicyRecord(
  store: FileStore,
  directory: string,
): Promise<SandboxPolicyRecord | undefined> {
  const path = `${directory}/${SANDBOX_POLICY_FILE}`;
  if (!(await store.exists(path))) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(await store.read(path));
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new DamagedSandboxPolicyRecordError(path, `not JSON: ${error.message}`, { cause: error });
  }
  // Read once per conversation: zod's compiled fast path would cost more than it saves.
  const parsed = sandboxPolicyRecordSchema.safeParse(json, { jitless: true });
  if (!parsed.success) throw new DamagedSandboxPolicyRecordError(path, zodProblems(parsed.error));
  return parsed.data;
}

/** The policy in force: the last entry's. */
export function currentSandboxPolicy(record: SandboxPolicyRecord | undefined): SandboxPolicy | undefined {
  return record?.entries.at(-1)?.policy;
}

/** Adds `policy` to the record unless it is already the one in force; a damaged record is left as it is (thrown). */
export async function recordSandboxPolicy(
  store: FileStore,
  directory: string,
  entry: { policy: SandboxPolicy; sinceEvent: number; now?: Date },
): Promise<void> {
  const record = await readSandboxPolicyRecord(store, directory);
  const current = currentSandboxPolicy(record);
  // In the schema's own key order, as the record's is read back: the same policy built in another order (a caller's
  // spread) is the one in force, not a new entry.
  const policy = sandboxPolicySchema.parse(entry.policy, { jitless: true });
  if (current !== undefined && JSON.stringify(current) === JSON.stringify(policy)) return;
  const next: SandboxPolicyRecord = {
    version: 1,
    entries: [
      ...(record?.entries ?? []),
      {
        policy,
        since_event: entry.sinceEvent,
        recorded_at: (entry.now ?? new Date()).toISOString(),
      },
    ],
  };
  await store.write(`${directory}/${SANDBOX_POLICY_FILE}`, JSON.stringify(next));
}
