import { createOfflineLLM } from '../llm/offline-llm.js';
import { resolveLLMFromEnv } from '../llm/resolve-llm-from-env.js';
import { defaultTools } from '../tools/default-tools.js';
import type { ToolEnvironment } from '../tools/environment/index.js';
import { Agent } from './agent.js';
import type { AgentOptions } from './agent-options.js';

/** The reply of the offline model when it has no script for the task (it is not a real model). */
export const OFFLINE_NOTICE =
  'This is the built-in offline model: it needs no network and no API key, and it can only replay scripts. Set OPENAI_API_KEY (and OPENAI_BASE_URL for another OpenAI-compatible endpoint) to use a real model.';

/**
 * An agent with sensible defaults: the model from the environment (OPENAI_API_KEY, OPENAI_BASE_URL,
 * X_MODEL) or else the offline model, and the default tools (terminal, file editor, task tracker, finish, think).
 * `toolEnvironment` sets what the tools' processes inherit (default: a minimal environment, no credentials).
 */
export function createAgent(
  options: Partial<AgentOptions> & { model?: string; toolEnvironment?: ToolEnvironment } = {},
): Agent {
  const llm =
    options.llm ??
    resolveLLMFromEnv(process.env, options.model === undefined ? {} : { model: options.model }) ??
    createOfflineLLM({ script: [{ toolCalls: [{ name: 'finish', arguments: { message: OFFLINE_NOTICE } }] }] });
  const { toolEnvironment, model: _model, ...agentOptions } = options;
  const tools =
    options.tools ?? defaultTools(toolEnvironment === undefined ? {} : { toolEnvironment: toolEnvironment });
  return new Agent({ ...agentOptions, llm, tools });
}
