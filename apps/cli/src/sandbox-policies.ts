import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One entry of a conversation's `x_sandbox_policy.json` (written by @x/agent), as `x inspect` shows it. */
export interface SandboxPolicyEntry {
  policy: {
    mode: string;
    network: { mode: string; hosts?: string[] };
    readablePaths: string[];
    writablePaths: string[];
  } & Record<string, unknown>;
  since_event: number;
  recorded_at: string;
}

function isEntry(value: unknown): value is SandboxPolicyEntry {
  const entry = value as Partial<SandboxPolicyEntry> | null;
  const policy = entry?.policy;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.since_event === 'number' &&
    typeof policy?.mode === 'string' &&
    typeof policy.network?.mode === 'string' &&
    Array.isArray(policy.readablePaths) &&
    Array.isArray(policy.writablePaths)
  );
}

/**
 * The sandbox policies recorded in a conversation directory, oldest first; empty when there is no record (a
 * conversation of the reference, or from before sandboxing) or it is unreadable (an audit record shows nothing
 * rather than something wrong).
 */
export function readSandboxPolicies(directory: string): SandboxPolicyEntry[] {
  try {
    const record = JSON.parse(readFileSync(join(directory, 'x_sandbox_policy.json'), 'utf8')) as {
      entries?: unknown;
    };
    return Array.isArray(record.entries) && record.entries.every(isEntry) ? record.entries : [];
  } catch {
    return [];
  }
}
