import { z } from 'zod';

/** The moments a hook can run at (reference `HookEventType`). */
export const hookEventTypeSchema = z.enum([
  'PreToolUse',
  'PostToolUse',
  'UserPromptSubmit',
  'SessionStart',
  'SessionEnd',
  'Stop',
]);
export type HookEventType = z.infer<typeof hookEventTypeSchema>;

/** The snake_case field of each event type in the reference's HookConfig. */
export const hookConfigFields = {
  PreToolUse: 'pre_tool_use',
  PostToolUse: 'post_tool_use',
  UserPromptSubmit: 'user_prompt_submit',
  SessionStart: 'session_start',
  SessionEnd: 'session_end',
  Stop: 'stop',
} as const satisfies Record<HookEventType, string>;
export type HookConfigField = (typeof hookConfigFields)[HookEventType];

export const hookEventTypes = hookEventTypeSchema.options;
