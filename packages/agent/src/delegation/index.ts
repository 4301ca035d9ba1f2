export { type A2aSubAgentOptions, createA2aSubAgentType } from './a2a/a2a-sub-agent.js';
export { RemoteAgentError } from './a2a/remote-agent-error.js';
export {
  createDelegateTool,
  type DelegateAction,
  type DelegateToolOptions,
  delegateParameters,
  type SubAgentType,
} from './delegate-tool.js';
export { agentFinalResponse } from './final-response.js';
export {
  isRemoteSubAgentType,
  type RemoteAnswer,
  type RemoteSubAgent,
  type RemoteSubAgentType,
  type RemoteUsage,
  remoteUsageSchema,
} from './remote-sub-agent.js';
export { listSubConversationIds, SUBAGENTS_DIR, subConversationsDirectory } from './sub-conversations.js';
