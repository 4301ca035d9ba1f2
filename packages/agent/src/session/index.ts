export { artifactPath } from './artifact-files.js';
export { type ArtifactVersion, ConversationSession, type SessionHost } from './conversation-session.js';
export {
  ArtifactDamagedError,
  InvalidArtifactNameError,
  InvalidStateDeltaError,
  UnknownArtifactError,
} from './session-errors.js';
export {
  ARTIFACT_DELTA_KEY,
  applyArtifactDelta,
  applySessionStateDelta,
  type SessionStateDelta,
  STATE_DELTA_KEY,
} from './session-keys.js';
