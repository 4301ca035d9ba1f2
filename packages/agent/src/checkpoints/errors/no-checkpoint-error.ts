import { AgentError } from '../../errors.js';

/** A workspace restore was asked for where no checkpoint was recorded (checkpoints off, or none yet). */
export class NoCheckpointError extends AgentError {
  readonly conversationId: string;

  constructor(conversationId: string, where: string) {
    super('no_checkpoint', `Conversation ${conversationId} has no workspace checkpoint ${where}`);
    this.conversationId = conversationId;
  }
}
