import type { HookEventType } from './hook-event-type.js';

/**
 * What a hook receives: written as JSON on a command's stdin, passed to a function hook as is. The fields
 * are the reference's `HookEvent`; absent values are `null` (as the reference serializes them).
 */
export interface HookInput {
  event_type: HookEventType;
  tool_name: string | null;
  tool_input: Record<string, unknown> | null;
  tool_response: Record<string, unknown> | null;
  message: string | null;
  session_id: string | null;
  working_dir: string | null;
  metadata: Record<string, unknown>;
}

/** What a hook may answer: a command prints it as JSON on stdout, a function returns it. */
export interface HookOutput {
  /** `deny` blocks the operation (like exit code 2); `allow` lets it proceed. */
  decision?: 'allow' | 'deny';
  /** Why: becomes the rejection reason of a blocked action, or the Stop hook's feedback. */
  reason?: string;
  /** Text added to the user's message (UserPromptSubmit) or sent as Stop hook feedback. */
  additionalContext?: string;
  /** `false` blocks, as `decision: 'deny'` does. */
  continue?: boolean;
}

/** A hook written in code. May be async; a thrown error or a timeout is recorded and does not block. */
export type HookFunction = (
  input: HookInput,
  options: { signal: AbortSignal },
) => HookOutput | undefined | Promise<HookOutput | undefined>;
