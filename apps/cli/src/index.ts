export { AmbiguousConversationError } from './errors/ambiguous-conversation-error.js';
export { ConversationNotFoundError } from './errors/conversation-not-found-error.js';
export { RunEndedError } from './errors/run-ended-error.js';
export { UsageError } from './errors/usage-error.js';
export { CliError, ExitCode } from './errors.js';
export {
  type ConversationVisualizer,
  type ConversationVisualizerOptions,
  createConversationVisualizer,
} from './render/conversation-visualizer.js';
