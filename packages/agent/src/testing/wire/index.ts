export { startAnthropicServer } from './anthropic-server.js';
export { startGeminiServer } from './gemini-server.js';
export { startResponsesServer } from './responses-server.js';
export type {
  WireFailure,
  WireFailureKind,
  WireReply,
  WireReplyFunction,
  WireRequest,
  WireServer,
  WireTurn,
} from './wire-types.js';
