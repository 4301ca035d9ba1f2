import type { HookEventType } from './hook-event-type.js';

/** Host variables a hook process inherits; nothing else (no API keys, no tokens) reaches it. */
export const HOOK_INHERITED_ENV = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR'] as const;

/**
 * The whole environment of a hook process: the few host variables above, the reference's
 * `OPENHANDS_PROJECT_DIR`, `OPENHANDS_SESSION_ID`, `OPENHANDS_EVENT_TYPE` and `OPENHANDS_TOOL_NAME` (when a
 * tool is involved), and whatever the caller adds explicitly.
 */
export function hookEnvironment(options: {
  workspace: string;
  sessionId: string;
  eventType: HookEventType;
  toolName?: string;
  extra?: Readonly<Record<string, string>>;
  host?: NodeJS.ProcessEnv;
}): Record<string, string> {
  const host = options.host ?? process.env;
  const env: Record<string, string> = {};
  for (const name of HOOK_INHERITED_ENV) {
    const value = host[name];
    if (value !== undefined) env[name] = value;
  }
  env.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  env.OPENHANDS_PROJECT_DIR = options.workspace;
  env.OPENHANDS_SESSION_ID = options.sessionId;
  env.OPENHANDS_EVENT_TYPE = options.eventType;
  if (options.toolName !== undefined) env.OPENHANDS_TOOL_NAME = options.toolName;
  return { ...env, ...options.extra };
}
