import { AgentError } from '../../errors.js';

/** A case names a recorded conversation that is neither a conversation directory nor a known id. */
export class EvalConversationNotFoundError extends AgentError {
  declare readonly code: 'eval_conversation_not_found';
  readonly caseId: string;
  readonly reference: string;

  constructor(caseId: string, reference: string, looked: readonly string[]) {
    super(
      'eval_conversation_not_found',
      `case ${caseId}, field conversation: no conversation ${JSON.stringify(reference)} (looked at ${looked.join(', ')})`,
    );
    this.caseId = caseId;
    this.reference = reference;
  }
}
