export {
  type ConversationCommands,
  type ConversationCommandsOptions,
  createConversationCommands,
} from './conversation-commands.js';
export { InvalidOptionError } from './errors/invalid-option-error.js';
export { RemoteAuthError } from './errors/remote-auth-error.js';
export { RemoteConversationNotFoundError } from './errors/remote-conversation-not-found-error.js';
export { RemoteGitError } from './errors/remote-git-error.js';
export { RemoteRequestError } from './errors/remote-request-error.js';
export { RemoteRouteNotFoundError } from './errors/remote-route-not-found-error.js';
export { RemoteRunError } from './errors/remote-run-error.js';
export { RemoteStreamClosedError } from './errors/remote-stream-closed-error.js';
export { RemoteTimeoutError } from './errors/remote-timeout-error.js';
export { RemoteWorkspacePathError } from './errors/remote-workspace-path-error.js';
export { WebSocketUnavailableError } from './errors/websocket-unavailable-error.js';
export { ClientError, type ClientErrorCode } from './errors.js';
export { type EventsBefore, type FetchEventsBeforeOptions, fetchEventsBefore } from './fetch-events-before.js';
export { type GitChangesAnswer, UNREADABLE_REPOSITORIES_HEADER } from './git-changes-answer.js';
export {
  type GitChange,
  type GitChangeStatus,
  type GitCommit,
  type GitCommitsPage,
  type GitDiff,
  gitChangeSchema,
  gitChangeStatusSchema,
  gitCommitSchema,
  gitCommitsPageSchema,
  gitDiffSchema,
} from './git-schemas.js';
export { RemoteConversation, type RemoteConversationState } from './remote-conversation.js';
export type {
  RemoteAttachOptions,
  RemoteConversationListener,
  RemoteCreateOptions,
  RemoteForkOptions,
  RemoteRunResult,
  RemoteSecretInput,
} from './remote-conversation-options.js';
export { createRemoteWorkspace, type RemoteWorkspace, type RemoteWorkspaceOptions } from './remote-workspace.js';
export { initialStateOrder, isNewerStateUpdate, type StateOrder, stateOrderAfter } from './state-order.js';
export {
  type ConversationEventStream,
  isPersistedFrame,
  type ReconnectOptions,
  type ResumeMode,
  type StreamConversationEventsOptions,
  streamConversationEvents,
} from './stream-conversation-events.js';
