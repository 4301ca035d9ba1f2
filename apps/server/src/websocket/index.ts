export { attachEventSockets, type EventSockets } from './attach-event-sockets.js';
export { CloseCode } from './close-codes.js';
export type { EventSocketHost, SocketConversation } from './event-socket-host.js';
export type { EventSocketOptions } from './event-socket-options.js';
export { InvalidClientFrameError } from './invalid-client-frame-error.js';
