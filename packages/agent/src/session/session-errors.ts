import { AgentError } from '../errors.js';

/** An artifact name that cannot name a file on every store (empty, too long, a slash or a control character). */
export class InvalidArtifactNameError extends AgentError {
  readonly artifactName: string;

  constructor(name: string, why: string) {
    super('invalid_artifact_name', `Invalid artifact name ${JSON.stringify(name)}: ${why}`);
    this.artifactName = name;
  }
}

/** `loadArtifact` named an artifact, or a version of it, that the conversation does not have. */
export class UnknownArtifactError extends AgentError {
  readonly artifactName: string;
  readonly version: number | undefined;

  constructor(name: string, version?: number) {
    super(
      'unknown_artifact',
      version === undefined
        ? `The conversation has no artifact named ${JSON.stringify(name)}`
        : `The conversation has no version ${version} of artifact ${JSON.stringify(name)}`,
    );
    this.artifactName = name;
    this.version = version;
  }
}

/** A session state delta that is not a JSON object of JSON values. */
export class InvalidStateDeltaError extends AgentError {
  constructor(why: string) {
    super('invalid_state_delta', `Invalid session state delta: ${why}`);
  }
}

/** An artifact version whose file is not what `saveArtifact` writes (cut short, edited, not JSON): named, not guessed. */
export class ArtifactDamagedError extends AgentError {
  readonly artifactName: string;
  readonly version: number;

  constructor(name: string, version: number, why: string, options: { cause?: unknown } = {}) {
    super('artifact_damaged', `Version ${version} of artifact ${JSON.stringify(name)} is damaged: ${why}`, options);
    this.artifactName = name;
    this.version = version;
  }
}
