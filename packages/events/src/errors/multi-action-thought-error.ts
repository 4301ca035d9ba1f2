import { EventsError } from '../errors.js';

/**
 * A later ActionEvent of a parallel batch (same `llm_response_id`) carries a thought. Only the first
 * action of a batch may, because the batch becomes one assistant message whose text is that thought.
 */
export class MultiActionThoughtError extends EventsError {
  readonly eventId: string;
  readonly llmResponseId: string;

  constructor(options: { eventId: string; llmResponseId: string }) {
    super(
      'multi_action_thought',
      `Expected empty thought for multi-action events after the first one (event ${options.eventId}, llm_response_id ${options.llmResponseId})`,
    );
    this.eventId = options.eventId;
    this.llmResponseId = options.llmResponseId;
  }
}
