/** The outcome of one hook (reference `HookResult`); each becomes a HookExecutionEvent. */
export interface HookResult {
  /** The hook ran and exited 0 (or a function returned) with usable output. */
  success: boolean;
  /** Exit code 2, `decision: "deny"` or `continue: false`. */
  blocked: boolean;
  /** The process's exit code; -1 when it was killed (timeout), could not start, or for function hooks that threw. */
  exit_code: number;
  stdout: string;
  stderr: string;
  decision?: 'allow' | 'deny';
  reason?: string;
  additional_context?: string;
  /** What went wrong: timeout, crash, invalid output. Never blocks by itself. */
  error?: string;
}

/** Characters of a hook's stdout, stderr, reason and context kept in its event (as the reference). */
export const MAX_HOOK_LOG_CHARS = 50_000;
const TRUNCATION_SUFFIX = '\n<TRUNCATED>';

export function truncateHookLog(value: string): string {
  if (value.length <= MAX_HOOK_LOG_CHARS) return value;
  return value.slice(0, MAX_HOOK_LOG_CHARS - TRUNCATION_SUFFIX.length) + TRUNCATION_SUFFIX;
}

/** Why a set of results blocks (reference `get_blocking_reason`): the first blocking result's reason or stderr. */
export function blockingReason(results: readonly HookResult[]): string | undefined {
  for (const result of results) {
    if (!result.blocked) continue;
    if (result.reason) return result.reason;
    if (result.stderr.trim()) return result.stderr.trim();
    return 'Blocked by hook';
  }
  return undefined;
}
