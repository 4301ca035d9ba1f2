import { ToolExecutionError } from '../tools/tool-execution-error.js';

/**
 * A recall the history cannot answer as asked: no mode or two modes at once, an unknown event id, a range outside
 * the log. The step loop shows its message to the model (an AgentErrorEvent it can correct), never a crash.
 */
export class InvalidRecallError extends ToolExecutionError {
  constructor(message: string) {
    super('recall', message);
  }
}
