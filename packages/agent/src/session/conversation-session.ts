import { type AnyEvent, createEvent } from '@x/events';

import { FileNotFoundError, type FileStore } from '@x/store';
import type { ConversationState } from '../state/conversation-state.js';
import { artifactPath, assertArtifactName, writeArtifactVersion } from './artifact-files.js';
import { InvalidStateDeltaError, UnknownArtifactError } from './session-errors.js';
import { ARTIFACT_DELTA_KEY, type SessionStateDelta, STATE_DELTA_KEY } from './session-keys.js';

/** One saved version of an artifact. */
export interface ArtifactVersion {
  name: string;
  version: number;
  mimeType: string;
  data: Uint8Array;
  /** The data as UTF-8 text (what `saveArtifact` was given when it was a string). */
  text(): string;
}

/** What the session needs of its conversation. */
export interface SessionHost {
  readonly store: FileStore;
  readonly directory: string;
  readonly state: ConversationState;
  emit(event: AnyEvent): Promise<void>;
}

/** An artifact file: the bytes base64-encoded in a small JSON envelope, so any store (text-only ones too) holds it. */
interface ArtifactFile {
  mime_type: string;
  encoding: 'base64';
  data: string;
}

/**
 * A conversation's session state and artifacts (orxhestra's `state_delta` and `artifact_delta`). The session
 * state is a key/value map that events change: each change is a ConversationStateUpdateEvent `state_delta`
 * folded into `state.session_state`, so it persists, survives a resume and is the same on every replica.
 * An artifact is a named file with versions: saving writes a new version beside the conversation's files
 * (`artifacts/<name>/v<n>`, on its store) and records `artifact_delta` `{name: n}`; every version stays loadable.
 */
export class ConversationSession {
  readonly #host: SessionHost;

  constructor(host: SessionHost) {
    this.#host = host;
  }

  /** The session state, as the log's `state_delta` updates left it. */
  get state(): Readonly<Record<string, unknown>> {
    return this.#host.state.session_state ?? {};
  }

  /** The latest version of each artifact. */
  get artifacts(): Readonly<Record<string, number>> {
    return this.#host.state.artifacts ?? {};
  }

  /** Sets each key of `delta` (`null` removes it): recorded as one `state_delta` update. */
  async update(delta: SessionStateDelta): Promise<void> {
    assertJsonObject(delta);
    if (Object.keys(delta).length === 0) return;
    await this.#host.emit(createEvent('ConversationStateUpdateEvent', { key: STATE_DELTA_KEY, value: { ...delta } }));
  }

  /** Saves `data` as the next version of artifact `name`; returns that version (1 for the first). */
  async saveArtifact(
    name: string,
    data: string | Uint8Array,
    options: { mimeType?: string } = {},
  ): Promise<{ name: string; version: number }> {
    assertArtifactName(name);
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
    const file: ArtifactFile = {
      mime_type:
        options.mimeType ?? (typeof data === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream'),
      encoding: 'base64',
      data: Buffer.from(bytes).toString('base64'),
    };
    const { store, directory } = this.#host;
    const version = await writeArtifactVersion(store, directory, name, JSON.stringify(file), this.artifacts[name] ?? 0);
    await this.#host.emit(
      createEvent('ConversationStateUpdateEvent', { key: ARTIFACT_DELTA_KEY, value: { [name]: version } }),
    );
    return { name, version };
  }

  /** Loads version `version` of artifact `name` (the latest without one); `UnknownArtifactError` when absent. */
  async loadArtifact(name: string, version?: number): Promise<ArtifactVersion> {
    assertArtifactName(name);
    const wanted = version ?? this.artifacts[name];
    if (wanted === undefined) throw new UnknownArtifactError(name);
    let text: string;
    try {
      text = await this.#host.store.read(artifactPath(this.#host.directory, name, wanted));
    } catch (error) {
      if (FileNotFoundError.isInstance(error)) throw new UnknownArtifactError(name, wanted);
      throw error;
    }
    const file = JSON.parse(text) as ArtifactFile;
    const data = new Uint8Array(Buffer.from(file.data, 'base64'));
    return { name, version: wanted, mimeType: file.mime_type, data, text: () => new TextDecoder().decode(data) };
  }

  /** The versions of artifact `name`, oldest first (`[]` when it has none). */
  artifactVersions(name: string): number[] {
    assertArtifactName(name);
    const latest = this.artifacts[name] ?? 0;
    return Array.from({ length: latest }, (_, index) => index + 1);
  }
}

function assertJsonObject(delta: unknown): asserts delta is SessionStateDelta {
  if (delta === null || typeof delta !== 'object' || Array.isArray(delta)) {
    throw new InvalidStateDeltaError('it must be an object of keys to values');
  }
  try {
    const copy = JSON.parse(JSON.stringify(delta)) as Record<string, unknown>;
    for (const key of Object.keys(delta)) {
      if (!(key in copy)) throw new InvalidStateDeltaError(`the value of ${JSON.stringify(key)} is not JSON`);
    }
  } catch (error) {
    if (error instanceof InvalidStateDeltaError) throw error;
    throw new InvalidStateDeltaError(error instanceof Error ? error.message : String(error));
  }
}
