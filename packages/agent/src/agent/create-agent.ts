import { createOfflineLLM } from '../llm/offline-llm.js';
import { resolveLLMFromEnv } from '../llm/resolve-llm-from-env.js';
import { defaultTools } from '../tools/default-tools.js';
import { Agent } from './agent.js';
import type { CreateAgentOptions } from './create-agent-options.js';
import { NoModelError } from './errors/no-model-error.js';

/** The reply of the offline model when it has no script for the task (it is not a real model). */
export const OFFLINE_NOTICE =
  'This is the built-in offline model: it needs no network and no API key, and it can only replay scripts. Set OPENAI_API_KEY (and OPENAI_BASE_URL for another OpenAI-compatible endpoint) to use a real model.';

/**
 * An agent with sensible defaults: `llm`, else the model the environment describes (OPENAI_API_KEY,
 * ANTHROPIC_API_KEY, GEMINI_API_KEY / GOOGLE_API_KEY; X_MODEL or `model`), or `NoModelError` when there is
 * none; the offline model only with `offline: true`; and the built-in tools (terminal, file editor, task tracker, finish,
 * think) unless `tools` replaces them, plus `extraTools`.
 */
export function createAgent(options: CreateAgentOptions = {}): Agent {
  const { toolEnvironment, model, offline, extraTools, ...agentOptions } = options;
  const llm = options.llm ?? (offline === true ? offlineLLM() : fromEnvironment(model));
  const tools = options.tools ?? defaultTools(toolEnvironment === undefined ? {} : { toolEnvironment });
  return new Agent({ ...agentOptions, llm, tools: [...tools, ...(extraTools ?? [])] });
}

function fromEnvironment(model: string | undefined) {
  const llm = resolveLLMFromEnv(process.env, model === undefined ? {} : { model });
  if (llm !== undefined) return llm;
  const named = model ?? process.env.X_MODEL;
  throw new NoModelError(named === undefined || named === '' ? {} : { model: named });
}

function offlineLLM() {
  return createOfflineLLM({ script: [{ toolCalls: [{ name: 'finish', arguments: { message: OFFLINE_NOTICE } }] }] });
}
