// The public exports of conversation/, re-exported by the package root.
export type { SecurityAnalyzerInput } from './analyzer-setting.js';
export {
  type ChangedSinceCheckpoint,
  changedSinceCheckpoint,
  checkpointInBaseState,
} from './changed-since-checkpoint.js';
export { Conversation } from './conversation.js';
export type {
  ConversationListener,
  ConversationOptions,
  RunOptions,
  RunResult,
  SendMessageOptions,
} from './conversation-options.js';
export type { EventEdit } from './edit-event.js';
export { ActionsAwaitDecisionError } from './errors/actions-await-decision-error.js';
export { CondenserUnavailableError } from './errors/condenser-unavailable-error.js';
export { ConversationAlreadyRunningError } from './errors/conversation-already-running-error.js';
export { ConversationClosedError } from './errors/conversation-closed-error.js';
export { ConversationExistsError } from './errors/conversation-exists-error.js';
export { ConversationLogGapError } from './errors/conversation-log-gap-error.js';
export { ConversationNotFoundError } from './errors/conversation-not-found-error.js';
export { ConversationRunError } from './errors/conversation-run-error.js';
export { CorruptConversationError } from './errors/corrupt-conversation-error.js';
export { InvalidConversationIdError } from './errors/invalid-conversation-id-error.js';
export { InvalidEventEditError } from './errors/invalid-event-edit-error.js';
export { InvalidMessageError } from './errors/invalid-message-error.js';
export { InvalidToolCallError } from './errors/invalid-tool-call-error.js';
export { NoUserMessageError } from './errors/no-user-message-error.js';
export { ReservedRootIdError } from './errors/reserved-root-id-error.js';
export { UnknownEventError } from './errors/unknown-event-error.js';
export type { ForkOptions } from './fork-options.js';
export { INTERRUPTED_ACTION_TEXT, interruptedActionEvent } from './ownership/interrupted-action.js';
export {
  conversationDirName,
  defaultPersistenceDir,
  hyphenateConversationId,
} from './persistence-layout.js';
export type { RunHost } from './run-host.js';
export { RUN_STATE_KEY, type RunRecord } from './run-lifecycle.js';
export { isMessageId } from './send-message.js';
export type { StateChange, StateChangeListener } from './state-changes.js';
