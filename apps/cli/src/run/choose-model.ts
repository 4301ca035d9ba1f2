import type { LLM } from '@x/agent';

type AgentModule = typeof import('@x/agent');

/** Which model a run uses, and how to describe it to the user. */
export interface ModelChoice {
  llm: LLM;
  kind: 'demo' | 'offline' | 'endpoint';
  /** The endpoint URL for `endpoint`. */
  endpoint?: string;
}

/**
 * `--demo` → the offline model with the built-in demo script; OPENAI_API_KEY → that OpenAI-compatible
 * endpoint; otherwise the offline model, which answers every task by explaining how to use a real one.
 */
export function chooseModel(
  agent: AgentModule,
  options: { demo: boolean; model?: string | undefined; baseUrl?: string | undefined; env: NodeJS.ProcessEnv },
): ModelChoice {
  if (options.demo) return { llm: agent.createOfflineLLM({ script: agent.builtInDemoScript() }), kind: 'demo' };
  const llm = agent.resolveLLMFromEnv(options.env, {
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.baseUrl === undefined ? {} : { baseURL: options.baseUrl }),
  });
  if (llm !== undefined) {
    return {
      llm,
      kind: 'endpoint',
      endpoint: options.baseUrl ?? options.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
    };
  }
  // A function script never runs out, so a resumed offline conversation keeps answering.
  const offline = agent.createOfflineLLM({
    script: () => ({ toolCalls: [{ name: 'finish', arguments: { message: agent.OFFLINE_NOTICE } }] }),
  });
  return { llm: offline, kind: 'offline' };
}
