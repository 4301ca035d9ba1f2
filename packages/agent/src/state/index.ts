// The public exports of state/, re-exported by the package root.
export { applyEvent } from './apply-event.js';
export {
  type ActiveAgent,
  activeAgentSchema,
  type Escalation,
  escalationSchema,
} from './control-state.js';
export {
  type ConversationState,
  conversationStateSchema,
  initialConversationState,
  type PendingAction,
  pendingActionSchema,
} from './conversation-state.js';
export { type ExecutionStatus, executionStatusSchema, isTerminalStatus } from './execution-status.js';
export { type ResponseUsage, responseUsages } from './response-usage.js';
export { stateAt } from './state-at.js';
