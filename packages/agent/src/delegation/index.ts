export {
  createDelegateTool,
  type DelegateAction,
  type DelegateToolOptions,
  delegateParameters,
  type SubAgentType,
} from './delegate-tool.js';
export { agentFinalResponse } from './final-response.js';
export { listSubConversationIds, SUBAGENTS_DIR, subConversationsDirectory } from './sub-conversations.js';
