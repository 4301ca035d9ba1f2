import type { z } from 'zod';
import { clientText } from '../internal/client-text.js';

/**
 * Fields of the reference's StartConversationRequest (ConversationConfig) that a reference client may send
 * (the Python client sends its defaults): accepted, and those we do not implement are ignored as before.
 */
export const REFERENCE_START_FIELDS = [
  'workspace',
  'worktree',
  'conversation_id',
  'parent_conversation_id',
  'confirmation_policy',
  'security_analyzer',
  'initial_message',
  'max_iterations',
  'stuck_detection',
  'secrets',
  'secrets_encrypted',
  'tool_module_qualnames',
  'client_tools',
  'agent_launch_additions',
  'agent_definitions',
  'plugins',
  'hook_config',
  'tags',
  'user_id',
  'observability_metadata',
  'observability_tags',
  'observability_span_name',
  'autotitle',
  'title_llm_profile',
  'agent_settings',
  'agent_profile_id',
  'agent',
] as const;

/** Fields of the reference's Agent JSON (AgentBase and Agent), accepted likewise. */
export const REFERENCE_AGENT_FIELDS = [
  'kind',
  'llm',
  'tools',
  'mcp_config',
  'filter_tools_regex',
  'include_default_tools',
  'agent_context',
  'system_prompt',
  'system_prompt_filename',
  'security_policy_filename',
  'system_prompt_kwargs',
  'condenser',
  'critic',
  'tool_concurrency_limit',
] as const;

/** Where a field that is known elsewhere belongs: said in the refusal instead of a bare "unknown". */
const MISPLACED: Readonly<Record<string, string>> = {
  'agent.hook_config': 'hook_config belongs at the top level of the request, beside agent',
  'agent.confirmation_policy': 'confirmation_policy belongs at the top level of the request, beside agent',
  'agent.secrets': 'secrets belongs at the top level of the request, beside agent',
  hook: 'did you mean hook_config?',
  hooks: 'did you mean hook_config?',
};

/**
 * A `superRefine` that refuses fields neither this server nor the reference knows: ignored, a misspelt or
 * misplaced field (`agent.hook_config`) would silently drop what it asked for (hooks that block a command).
 */
export function refuseUnknownFields(prefix: string, known: readonly string[]) {
  const allowed = new Set(known);
  return (value: Record<string, unknown>, context: z.RefinementCtx): void => {
    for (const key of Object.keys(value)) {
      if (allowed.has(key)) continue;
      const path = prefix === '' ? key : `${prefix}.${key}`;
      // Own entries only: a field named `constructor` or `__proto__` has no hint, not Object.prototype's.
      const hint = Object.hasOwn(MISPLACED, path) ? MISPLACED[path] : undefined;
      context.addIssue({
        code: 'custom',
        path: [key],
        message: `Unknown field '${clientText(path)}'${hint === undefined ? '' : `: ${hint}`}`,
      });
    }
  };
}
