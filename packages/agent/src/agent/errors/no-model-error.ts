import { AgentError } from '../../errors.js';

/** The variables `createAgent` reads a model from (a key per provider; the model; endpoints). */
export const MODEL_ENVIRONMENT_VARIABLES = [
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'X_MODEL',
  'X_PROVIDER',
] as const;

/**
 * `createAgent` found no model: no `llm` option, no provider key in the environment, and no `offline: true`.
 * A library that quietly ran on the offline model would report `finished` for work never done.
 */
export class NoModelError extends AgentError {
  /** The model that was named (`model` option or X_MODEL) without a key for its provider, if any. */
  readonly model: string | undefined;

  constructor(options: { model?: string } = {}) {
    const named = options.model === undefined ? 'No model is configured' : `No API key for model '${options.model}'`;
    super(
      'no_model',
      `${named}: createAgent needs an \`llm\` option (e.g. createLLM({ model, apiKey })), or a provider key in the ` +
        'environment: OPENAI_API_KEY (OPENAI_BASE_URL for another OpenAI-compatible endpoint), ANTHROPIC_API_KEY, ' +
        'GEMINI_API_KEY or GOOGLE_API_KEY; the `model` option or X_MODEL names the model, X_PROVIDER the provider. ' +
        'For the built-in offline model (no network, replays scripts only) pass `offline: true`.',
    );
    this.model = options.model;
  }
}
