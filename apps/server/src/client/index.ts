// The remote client moved to its own browser-safe package, @x/client; `@x/server/client` stays as it was for
// the code and tests that import it from here.
export {
  ClientError,
  type ClientErrorCode,
  type ConversationEventStream,
  isPersistedFrame,
  type ReconnectOptions,
  type RemoteAttachOptions,
  RemoteAuthError,
  RemoteConversation,
  type RemoteConversationListener,
  RemoteConversationNotFoundError,
  type RemoteConversationState,
  type RemoteCreateOptions,
  type RemoteForkOptions,
  RemoteRequestError,
  RemoteRouteNotFoundError,
  RemoteRunError,
  type RemoteRunResult,
  type RemoteSecretInput,
  RemoteStreamClosedError,
  RemoteTimeoutError,
  type ResumeMode,
  type StreamConversationEventsOptions,
  streamConversationEvents,
  WebSocketUnavailableError,
} from '@x/client';
export { type ConversationServer, type OpenConversationOptions, openConversation } from './open-conversation.js';
