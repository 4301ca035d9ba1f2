import { AgentError, type HookConfig, hookConfigToJSON, parseHookConfig } from '@x/agent';
import { InvalidRequestError } from './errors/invalid-request-error.js';

/**
 * The hooks of a start request's (or meta.json's) `hook_config`, in the reference's HookConfig shape.
 * An invalid configuration is refused (422) before anything is written. Hooks are shell commands run on
 * the server's host in the conversation's workspace, with a minimal environment: only clients that may
 * already run terminal commands there (the server's authenticated clients) can set them.
 */
export function hooksOfRequest(hookConfig: Record<string, unknown> | null | undefined): HookConfig | undefined {
  if (hookConfig === null || hookConfig === undefined) return undefined;
  try {
    return parseHookConfig(hookConfig, 'hook_config');
  } catch (error) {
    if (!AgentError.isInstance(error)) throw error;
    throw new InvalidRequestError(error.message, { statusCode: 422, cause: error, loc: ['body', 'hook_config'] });
  }
}

/** `hook_config` as ConversationInfo shows it: the reference's serialized HookConfig, or null. */
export function hookConfigInfo(hooks: HookConfig | undefined): Record<string, unknown> | null {
  return hooks === undefined ? null : hookConfigToJSON(hooks);
}
