import { AgentError } from '../../errors.js';

/** `condense()` without a condenser that handles condensation requests. */
export class CondenserUnavailableError extends AgentError {
  constructor() {
    super(
      'no_condenser',
      'Cannot condense the conversation: no condenser that handles condensation requests is configured (use an LLMSummarizingCondenser).',
    );
  }
}
