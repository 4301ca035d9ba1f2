import { type AnyEvent, createEvent } from '@x/events';

import { FileNotFoundError, type FileStore } from '@x/store';
import type { ConversationState } from '../state/conversation-state.js';
import { artifactPath, assertArtifactName, writeArtifactVersion } from './artifact-files.js';
import { ArtifactDamagedError, InvalidStateDeltaError, UnknownArtifactError } from './session-errors.js';
import { ARTIFACT_DELTA_KEY, ownValue, RESERVED_KEY, type SessionStateDelta, STATE_DELTA_KEY } from './session-keys.js';

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

  /**
   * Sets each key of `delta` (`null` removes it) to its value's JSON form (a Date becomes its ISO string, as the log
   * stores it): recorded as one `state_delta` update.
   */
  async update(delta: SessionStateDelta): Promise<void> {
    const json = jsonObjectOf(delta);
    if (Object.keys(json).length === 0) return;
    // The JSON form, not the values given: the state in memory is then what a resume or another replica folds.
    await this.#host.emit(createEvent('ConversationStateUpdateEvent', { key: STATE_DELTA_KEY, value: json }));
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
      // An empty type is no type: it would be served as an empty content-type.
      mime_type:
        options.mimeType || (typeof data === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream'),
      encoding: 'base64',
      data: Buffer.from(bytes).toString('base64'),
    };
    const { store, directory } = this.#host;
    const version = await writeArtifactVersion(store, directory, name, JSON.stringify(file), this.#latest(name) ?? 0);
    await this.#host.emit(
      createEvent('ConversationStateUpdateEvent', { key: ARTIFACT_DELTA_KEY, value: { [name]: version } }),
    );
    return { name, version };
  }

  /** Loads version `version` of artifact `name` (the latest without one); `UnknownArtifactError` when absent. */
  async loadArtifact(name: string, version?: number): Promise<ArtifactVersion> {
    assertArtifactName(name);
    const wanted = version ?? this.#latest(name);
    if (wanted === undefined) throw new UnknownArtifactError(name);
    let text: string;
    try {
      text = await this.#host.store.read(artifactPath(this.#host.directory, name, wanted));
    } catch (error) {
      if (FileNotFoundError.isInstance(error)) throw new UnknownArtifactError(name, wanted);
      throw error;
    }
    const file = artifactFileOf(text, name, wanted);
    const data = new Uint8Array(Buffer.from(file.data, 'base64'));
    return { name, version: wanted, mimeType: file.mime_type, data, text: () => new TextDecoder().decode(data) };
  }

  /** The versions of artifact `name`, oldest first (`[]` when it has none). */
  artifactVersions(name: string): number[] {
    assertArtifactName(name);
    const latest = this.#latest(name) ?? 0;
    return Array.from({ length: latest }, (_, index) => index + 1);
  }

  #latest(name: string): number | undefined {
    return ownValue(this.artifacts, name);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** `delta` as JSON would hold it; `InvalidStateDeltaError` naming a key whose value JSON drops (a function). */
function jsonObjectOf(delta: unknown): Record<string, unknown> {
  if (!isObject(delta)) throw new InvalidStateDeltaError('it must be an object of keys to values');
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(delta));
  } catch (error) {
    throw new InvalidStateDeltaError(error instanceof Error ? error.message : String(error));
  }
  // An object whose `toJSON` gives something else (a Date) is not a delta either.
  if (!isObject(copy)) throw new InvalidStateDeltaError('it must be an object of keys to values');
  for (const key of Object.keys(delta)) {
    if (key === RESERVED_KEY) throw new InvalidStateDeltaError(`${JSON.stringify(key)} cannot be a key`);
    // Own keys only: `toString` or `constructor` is "in" every object.
    if (!Object.hasOwn(copy, key)) throw new InvalidStateDeltaError(`the value of ${JSON.stringify(key)} is not JSON`);
  }
  return copy;
}

/** The artifact file's JSON, checked: a damaged one is `ArtifactDamagedError`, never a `TypeError` or wrong bytes. */
function artifactFileOf(text: string, name: string, version: number): ArtifactFile {
  let file: unknown;
  try {
    file = JSON.parse(text);
  } catch (error) {
    throw new ArtifactDamagedError(name, version, `its file is not JSON (${(error as Error).message})`, {
      cause: error,
    });
  }
  const record = (typeof file === 'object' && file !== null ? file : {}) as Partial<
    Record<keyof ArtifactFile, unknown>
  >;
  if (typeof record.mime_type !== 'string') throw new ArtifactDamagedError(name, version, 'its file has no mime_type');
  if (record.encoding !== 'base64') throw new ArtifactDamagedError(name, version, 'its file is not base64-encoded');
  if (typeof record.data !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(record.data) || record.data.length % 4 !== 0) {
    throw new ArtifactDamagedError(name, version, 'its data is not base64');
  }
  return record as ArtifactFile;
}
