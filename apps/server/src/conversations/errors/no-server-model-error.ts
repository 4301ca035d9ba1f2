import { InvalidRequestError } from './invalid-request-error.js';

/**
 * A create body that names no model (no `agent.llm.model`, endpoint or key) on a server that has no default
 * model either. Refused with 422 rather than run on the offline demo model, which would "finish" without
 * doing anything.
 */
export class NoServerModelError extends InvalidRequestError {
  /** `at`: where the request's LLM config is in the body (`['agent', 'llm']`, or generate_title's `['llm']`). */
  constructor(at: readonly string[] = ['agent', 'llm']) {
    const field = at.join('.');
    super(
      `${field}.model: the request names no model and the server has none configured. Name one in ` +
        `${field} (model, and api_key or base_url), or start the server with X_MODEL and a provider key ` +
        '(OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY); "offline" selects the offline demo model.',
      { statusCode: 422, loc: ['body', ...at, 'model'] },
    );
  }
}
