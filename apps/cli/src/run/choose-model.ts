import type { LLM } from '@x/agent';

type AgentModule = typeof import('@x/agent');

/** Which model a run uses, and how to describe it to the user. */
export interface ModelChoice {
  llm: LLM;
  kind: 'demo' | 'offline' | 'endpoint';
  /** The endpoint URL for `endpoint`, as shown: its credentials masked (`maskUrlCredentials`). */
  endpoint?: string;
}

const endpoints: Record<string, { env: string[]; fallback: string }> = {
  openai: { env: ['OPENAI_BASE_URL'], fallback: 'https://api.openai.com/v1' },
  'openai-responses': { env: ['OPENAI_BASE_URL'], fallback: 'https://api.openai.com/v1' },
  anthropic: { env: ['ANTHROPIC_BASE_URL'], fallback: 'https://api.anthropic.com' },
  gemini: { env: ['GEMINI_BASE_URL', 'GOOGLE_GEMINI_BASE_URL'], fallback: 'https://generativelanguage.googleapis.com' },
};

/**
 * `--demo` → the offline model with the built-in demo script; a provider key in the environment
 * (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY) → that provider, chosen by `--provider`, else from
 * the model name (`anthropic/claude-…`, `gemini/…`, `openai/…`); otherwise the offline model, which
 * answers every task by explaining how to use a real one.
 */
export function chooseModel(
  agent: AgentModule,
  options: {
    demo: boolean;
    model?: string | undefined;
    baseUrl?: string | undefined;
    provider?: string | undefined;
    env: NodeJS.ProcessEnv;
  },
): ModelChoice {
  if (options.demo) return { llm: agent.createOfflineLLM({ script: agent.builtInDemoScript() }), kind: 'demo' };
  const provider = (agent.providerNames as readonly string[]).includes(options.provider ?? '')
    ? (options.provider as (typeof agent.providerNames)[number])
    : undefined;
  const llm = agent.resolveLLMFromEnv(options.env, {
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.baseUrl === undefined ? {} : { baseURL: options.baseUrl }),
    ...(provider === undefined ? {} : { provider }),
  });
  if (llm !== undefined) {
    const endpoint = endpoints[llm.provider ?? 'openai'] ?? endpoints.openai;
    const fromEnv = endpoint?.env.map((name) => options.env[name]).find(Boolean);
    const url = options.baseUrl ?? fromEnv ?? endpoint?.fallback ?? '';
    return { llm, kind: 'endpoint', endpoint: agent.maskUrlCredentials(url) };
  }
  // A function script never runs out, so a resumed offline conversation keeps answering.
  const offline = agent.createOfflineLLM({
    script: () => ({ toolCalls: [{ name: 'finish', arguments: { message: agent.OFFLINE_NOTICE } }] }),
  });
  return { llm: offline, kind: 'offline' };
}
