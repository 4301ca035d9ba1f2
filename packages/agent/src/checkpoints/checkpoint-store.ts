import { createHash } from 'node:crypto';
import { FileNotFoundError, type FileStore, StoreError } from '@x/store';
import type { CheckpointManifest } from './checkpoint-manifest.js';
import { readTree, type TreeLocation, writeTree } from './checkpoint-trees.js';
import { CheckpointDamagedError } from './errors/checkpoint-damaged-error.js';
import { CheckpointWriteError } from './errors/checkpoint-write-error.js';

/** The directory of a conversation's checkpoints, beside its events (the reference ignores unknown entries). */
export const CHECKPOINTS_DIR = '.x-checkpoints';

/**
 * A content-addressed store of workspace checkpoints on a FileStore: `objects/<sha256>` blobs (each written once)
 * and `trees/<checkpoint id>.json` manifests, under `<conversation dir>/.x-checkpoints/`. On a store that cannot
 * read bytes back (`readBatch`, which the local and memory stores have) a blob is kept as base64 text
 * (`objects/<sha256>.b64`), since `read` decodes UTF-8 and would mangle binary files.
 */
export class CheckpointStore {
  readonly store: FileStore;
  readonly root: string;
  readonly #known = new Set<string>();
  readonly #trees: TreeLocation;
  #listed: Promise<void> | undefined;

  constructor(store: FileStore, conversationDir: string) {
    this.store = store;
    this.root = `${conversationDir}/${CHECKPOINTS_DIR}`;
    this.#trees = { store, root: this.root, knownChunks: new Set() };
  }

  get #binary(): boolean {
    return this.store.readBatch !== undefined;
  }

  #blobPath(sha256: string): string {
    return `${this.root}/objects/${sha256}${this.#binary ? '' : '.b64'}`;
  }

  /** Where the blob `sha256` is, for messages. */
  describeBlob(sha256: string): string {
    return this.store.describe(this.#blobPath(sha256));
  }

  /** Whether the blob is stored (one listing of `objects/` the first time, then remembered). */
  async hasBlob(sha256: string): Promise<boolean> {
    this.#listed ??= this.store.list(`${this.root}/objects`).then(
      (entries) => {
        for (const entry of entries) this.#known.add(entry.slice(entry.lastIndexOf('/') + 1).replace(/\.b64$/, ''));
      },
      (error: unknown) => {
        // Not kept: a store unreachable for a moment would otherwise fail every later checkpoint of the session.
        this.#listed = undefined;
        throw error;
      },
    );
    await this.#listed;
    return this.#known.has(sha256);
  }

  /** Stores a blob unless it is there already. */
  async putBlob(sha256: string, content: Uint8Array): Promise<void> {
    if (await this.hasBlob(sha256)) return;
    const path = this.#blobPath(sha256);
    try {
      await this.store.writeIfAbsent(path, this.#binary ? content : Buffer.from(content).toString('base64'));
    } catch (cause) {
      throw new CheckpointWriteError(this.store.describe(path), { cause });
    }
    this.#known.add(sha256);
  }

  /** The blobs' bytes, each checked against its hash (`CheckpointDamagedError` naming the first bad one). */
  async getBlobs(hashes: readonly string[]): Promise<Uint8Array[]> {
    const paths = hashes.map((sha256) => this.#blobPath(sha256));
    const raw: (Uint8Array | StoreError)[] =
      this.store.readBatch !== undefined
        ? await this.store.readBatch(paths)
        : await Promise.all(
            paths.map((path) =>
              this.store.read(path).then(
                (text) => Buffer.from(text, 'base64') as Uint8Array,
                (error: unknown) => {
                  if (StoreError.isInstance(error)) return error;
                  throw error;
                },
              ),
            ),
          );
    return raw.map((content, index) => {
      const location = this.store.describe(paths[index]!);
      if (content instanceof Error) {
        const detail = FileNotFoundError.isInstance(content) ? 'missing' : content.message;
        throw new CheckpointDamagedError(location, detail, { cause: content });
      }
      const actual = createHash('sha256').update(content).digest('hex');
      if (actual !== hashes[index]) {
        throw new CheckpointDamagedError(location, `its content hashes to ${actual}, not ${hashes[index]}`);
      }
      return content;
    });
  }

  /** Stores a checkpoint's tree (a chunk per directory, each written once) and returns its id. */
  putTree(manifest: CheckpointManifest): Promise<string> {
    return writeTree(this.#trees, manifest);
  }

  /** The tree of checkpoint `id`; `CheckpointDamagedError` when it (or a chunk of it) is missing or damaged. */
  getTree(id: string): Promise<CheckpointManifest> {
    return readTree(this.#trees, id);
  }

  /**
   * Copies checkpoints (trees and their blobs) into `target`: within one store (a fork) each blob is copied as it
   * is (hard links on the local store); into another, read and written anew (re-encoded where the kinds differ).
   */
  async copyTo(target: CheckpointStore, ids: readonly string[]): Promise<void> {
    for (const id of new Set(ids)) {
      const manifest = await this.getTree(id);
      for (const file of manifest.files) {
        if (await target.hasBlob(file.sha256)) continue;
        if (this.store === target.store) {
          await target.store.copy(this.#blobPath(file.sha256), target.#blobPath(file.sha256));
          target.#known.add(file.sha256);
        } else {
          const [content] = await this.getBlobs([file.sha256]);
          await target.putBlob(file.sha256, content!);
        }
      }
      await target.putTree(manifest);
    }
  }
}
