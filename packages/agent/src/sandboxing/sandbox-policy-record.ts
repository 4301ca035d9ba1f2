import type { FileStore } from '@x/store';
import { z } from 'zod';
import { type SandboxPolicy, sandboxPolicySchema } from '../sandbox/sandbox-policy.js';

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
 * sandboxing, or by the reference) or it does not parse (it is an audit record, never trusted to grant anything).
 */
export async function readSandboxPolicyRecord(
  store: FileStore,
  directory: string,
): Promise<SandboxPolicyRecord | undefined> {
  const path = `${directory}/${SANDBOX_POLICY_FILE}`;
  if (!(await store.exists(path))) return undefined;
  try {
    const parsed = sandboxPolicyRecordSchema.safeParse(JSON.parse(await store.read(path)), {
      // Read once per conversation: zod's compiled fast path would cost more than it saves.
      jitless: true,
    });
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The policy in force: the last entry's. */
export function currentSandboxPolicy(record: SandboxPolicyRecord | undefined): SandboxPolicy | undefined {
  return record?.entries.at(-1)?.policy;
}

/** Adds `policy` to the record unless it is already the one in force. */
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
