import { readdir } from 'node:fs/promises';
import { type AnyEvent, createEvent } from '@x/events';
import type { EventLogLike, FileStore } from '@x/store';
import { readBranch } from '../conversation/branch-history.js';
import { type CheckpointManifest, checkpointId } from './checkpoint-manifest.js';
import { CHECKPOINT_KEY, type CheckpointRecord, checkpointOnBranch, checkpointsByEvent } from './checkpoint-records.js';
import { CheckpointStore } from './checkpoint-store.js';
import { type RestoreResult, restoreWorkspace } from './restore-workspace.js';
import { IGNORED_NAMES, snapshotWorkspace } from './workspace-snapshot.js';

/** What the checkpoints of a conversation need of it. */
export interface CheckpointsHost {
  readonly id: string;
  readonly store: FileStore;
  readonly directory: string;
  readonly workspace: string;
  readonly log: EventLogLike;
  /** Whether checkpoints are on (`workspaceCheckpoints`). */
  readonly enabled: boolean;
  /** HEAD: the event a checkpoint taken now belongs to. */
  head(): string | undefined;
  emit(event: AnyEvent): Promise<void>;
}

/**
 * The workspace checkpoints of one conversation (`workspaceCheckpoints: true`). `capture` runs after every agent
 * step and every `executeTool`: it walks the workspace (one stat per file; only changed files are read and hashed),
 * stores the new blobs and the tree in the conversation's `.x-checkpoints/`, and, when the tree differs from the
 * one in effect at HEAD, records `x_workspace_checkpoint {checkpoint_id, event_id}` in the log. The files at any
 * event are those of the latest checkpoint at or before it on its branch. A failure to capture never stops the
 * conversation: it is kept in `warnings` (with the files that could not be read).
 */
export class WorkspaceCheckpoints {
  readonly #host: CheckpointsHost;
  readonly objects: CheckpointStore;
  readonly #warnings: string[] = [];
  /** The manifest last taken or restored (its files' stats spare rehashing), and its id. */
  #latest: { id: string; manifest: CheckpointManifest } | undefined;
  /** The checkpoint in effect at HEAD as recorded in the log (undefined: not looked up yet). */
  #atHead: string | null | undefined;

  constructor(host: CheckpointsHost) {
    this.#host = host;
    this.objects = new CheckpointStore(host.store, host.directory);
  }

  get enabled(): boolean {
    return this.#host.enabled;
  }

  /** What went wrong capturing or restoring without stopping the conversation, oldest first. */
  get warnings(): readonly string[] {
    return this.#warnings;
  }

  /** Takes a checkpoint of the workspace now and records it at HEAD if it changed; its id (undefined when off or failed). */
  async capture(): Promise<string | undefined> {
    if (!this.enabled) return undefined;
    try {
      const manifest = await snapshotWorkspace(this.#host.workspace, this.#latest?.manifest, (sha256, content) =>
        this.objects.putBlob(sha256, content),
      );
      for (const file of manifest.skipped) this.#warn(`${file.path} was left out of a checkpoint: ${file.reason}`);
      const id = await this.objects.putTree(manifest);
      this.#latest = { id, manifest };
      const head = this.#host.head();
      const inEffect = await this.#inEffectAtHead();
      if (head === undefined || id === inEffect) return id;
      // The first checkpoint of a branch stands for the files since its root (the files the agent first saw).
      const eventId = inEffect === null ? ((await this.#branch(head))[0]?.id ?? head) : head;
      const value: CheckpointRecord = { checkpoint_id: id, event_id: eventId };
      await this.#host.emit(createEvent('ConversationStateUpdateEvent', { key: CHECKPOINT_KEY, value }));
      this.#atHead = id;
      return id;
    } catch (error) {
      this.#warn(`No workspace checkpoint after ${this.#host.head() ?? 'the start'}: ${(error as Error).message}`);
      return undefined;
    }
  }

  /** The latest checkpoint at or before `eventId` on its branch (null: an empty HEAD, which has none). */
  async at(eventId: string | null): Promise<CheckpointRecord | undefined> {
    if (eventId === null) return undefined;
    const { events, branch } = await readBranch(this.#host.log, eventId, false);
    return checkpointOnBranch(branch, checkpointsByEvent(events));
  }

  /** The tree of checkpoint `id` (`CheckpointDamagedError` when it is missing or damaged). */
  manifest(id: string): Promise<CheckpointManifest> {
    return this.objects.getTree(id);
  }

  /**
   * Makes the workspace what it was at `eventId` (navigate, fork, edit: the user asked for that point). Nothing
   * happens when checkpoints are off or none was taken by then. Throws `CheckpointDamagedError` before touching
   * any file when a blob it needs is damaged.
   */
  async restoreAt(eventId: string | null): Promise<RestoreResult | undefined> {
    if (!this.enabled) return undefined;
    const record = await this.at(eventId);
    if (record === undefined) {
      this.#atHead = null;
      return undefined;
    }
    return this.restore(record.checkpoint_id);
  }

  /**
   * Makes the workspace hold exactly checkpoint `id`, making it (and, with `parents`, the default, the directories
   * above it) when missing.
   */
  async restore(id: string, options: { parents?: boolean } = {}): Promise<RestoreResult> {
    const target = await this.objects.getTree(id);
    const result = await restoreWorkspace({
      workspace: this.#host.workspace,
      target,
      objects: this.objects,
      ...(options.parents === undefined ? {} : { parents: options.parents }),
      ...(this.#latest === undefined ? {} : { current: this.#latest.manifest }),
    });
    this.#latest = { id, manifest: target };
    this.#atHead = id;
    return result;
  }

  /**
   * On resume: a missing or empty workspace gets the files of HEAD's checkpoint; a workspace with files is never
   * overwritten (they may be the user's uncommitted work): when they differ from the checkpoint, a warning says so.
   * A missing workspace is made again, but not the directories above it (a server's workspace root deleted under
   * it is not the conversation's to make again, by merely opening it): a warning says so. A damaged store is a
   * warning too: the conversation opens and runs either way.
   */
  async resumed(): Promise<void> {
    if (!this.enabled) return;
    try {
      const record = await this.at(this.#host.head() ?? null);
      this.#atHead = record?.checkpoint_id ?? null;
      if (record === undefined) return;
      if (await isEmptyWorkspace(this.#host.workspace)) {
        await this.restore(record.checkpoint_id, { parents: false });
        return;
      }
      const recorded = await this.objects.getTree(record.checkpoint_id);
      const manifest = await snapshotWorkspace(this.#host.workspace, recorded);
      const id = await this.objects.putTree(manifest);
      this.#latest = { id, manifest };
      // A tree taken before directories were recorded is compared on its files and links only.
      const { directories: _directories, ...withoutDirectories } = manifest;
      const comparable = recorded.directories === undefined ? checkpointId(withoutDirectories) : id;
      if (comparable !== record.checkpoint_id) {
        this.#warn(
          `The workspace ${this.#host.workspace} differs from checkpoint ${record.checkpoint_id} (at event ${record.event_id}); left as it is`,
        );
      }
    } catch (error) {
      this.#warn(`Could not restore the workspace on resume: ${(error as Error).message}`);
    }
  }

  /** Copies the checkpoints of `branch` (a fork's copied events) into `target`'s store and restores its HEAD's. */
  async handOver(target: WorkspaceCheckpoints, branch: readonly AnyEvent[]): Promise<void> {
    if (!this.enabled || !target.enabled) return;
    const { events } = await readBranch(this.#host.log, undefined, false);
    const byEvent = checkpointsByEvent(events);
    const records = branch.flatMap((event) => {
      const id = byEvent.get(event.id);
      return id === undefined ? [] : [{ checkpoint_id: id, event_id: event.id }];
    });
    await this.objects.copyTo(
      target.objects,
      records.map((record) => record.checkpoint_id),
    );
    // A fork from an event copies the branch's tree events only: the records (state updates) are written anew.
    const { events: copied } = await readBranch(target.#host.log, undefined, false);
    const present = checkpointsByEvent(copied);
    for (const record of records) {
      if (present.get(record.event_id) === record.checkpoint_id) continue;
      await target.#host.emit(createEvent('ConversationStateUpdateEvent', { key: CHECKPOINT_KEY, value: record }));
    }
    const head = checkpointOnBranch(branch, byEvent);
    if (head !== undefined) await target.restore(head.checkpoint_id);
  }

  async #branch(eventId: string): Promise<AnyEvent[]> {
    return (await readBranch(this.#host.log, eventId, false)).branch;
  }

  async #inEffectAtHead(): Promise<string | null> {
    if (this.#atHead === undefined) this.#atHead = (await this.at(this.#host.head() ?? null))?.checkpoint_id ?? null;
    return this.#atHead;
  }

  #warn(message: string): void {
    this.#warnings.push(message);
  }
}

/** True when `workspace` does not exist or holds nothing but what checkpoints ignore. */
async function isEmptyWorkspace(workspace: string): Promise<boolean> {
  try {
    return (await readdir(workspace)).every((name) => IGNORED_NAMES.has(name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}
