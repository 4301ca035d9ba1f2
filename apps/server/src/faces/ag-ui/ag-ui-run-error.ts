import { ServerError } from '../../errors.js';

/** What an AG-UI run input got wrong that is answered with a typed `RUN_ERROR` (its `code`), nothing recorded. */
export type AgUiRunErrorCode =
  | 'tool_name_clash'
  | 'invalid_tool'
  | 'unknown_tool_call'
  | 'pending_tool_call'
  | 'unanswered_interrupt'
  | 'invalid_state'
  | 'invalid_context'
  | 'unsupported_content';

/** A run input the AG-UI face refuses with a `RUN_ERROR` event: the thread is left as it was. */
export class AgUiRunError extends ServerError {
  declare readonly code: AgUiRunErrorCode;

  constructor(code: AgUiRunErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
