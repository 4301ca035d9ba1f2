export { type A2aRoutesOptions, registerA2aRoutes } from './a2a-routes.js';
export { A2A_ERROR_CODES, type A2aErrorName, A2aRpcError } from './a2a-rpc-error.js';
export {
  A2A_PROTOCOL_VERSION,
  type A2aArtifact,
  type A2aArtifactUpdate,
  type A2aMessage,
  type A2aPart,
  type A2aStatusUpdate,
  type A2aStreamResponse,
  type A2aTask,
  type A2aTaskState,
  type A2aTaskStatus,
} from './a2a-types.js';
export { A2A_PATH, AGENT_CARD_PATH, type AgentCardOptions, agentCard } from './agent-card.js';
export { type AgentCardSignature, canonicalAgentCard, ed25519KeyId, signAgentCard } from './card-signature.js';
export { loadSigningKey } from './signing-key.js';
export { SigningKeyError } from './signing-key-error.js';
export { isFinalState, projectTask, RESPONSE_ARTIFACT_ID, TaskProjection, taskStateOf } from './task-projection.js';
