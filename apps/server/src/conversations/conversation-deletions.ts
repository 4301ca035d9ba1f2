import type { FileStore } from '@x/store';
import type { FastifyBaseLogger } from 'fastify';
import { hyphenate } from '../internal/conversation-ids.js';
import type { ManagedConversation } from './managed-conversation.js';
import { finishDeletion, listTombstones, writeTombstone } from './tombstones.js';

/** What a delete needs besides the conversation. */
export interface DeleteRequest {
  store: FileStore;
  logger: FastifyBaseLogger;
  /** How long to wait for a running conversation to pause before cutting it off. */
  runTimeoutMs: number;
  /** Revokes the conversation's guarded view of the store: nothing under way can write again. */
  revoke: () => Promise<void>;
  /** Called when the tombstone could not be written: nothing was removed, the conversation stays. */
  onNotDeleted: () => void;
}

/**
 * The server's deletes: those under way, those a failing store left tombstoned (finished at the next start), and
 * the conversations this process deleted (until one is created again with that id). Keys are id hex.
 */
export class ConversationDeletions {
  /** hex → the delete under way. */
  readonly #deleting = new Map<string, Promise<void>>();
  /** Deletes that could not be finished (their tombstone stays; the next start finishes them). */
  readonly #tombstoned = new Set<string>();
  /** Conversations deleted by this process (until one is created again with that id). */
  readonly #deleted = new Set<string>();

  /** Finishes the deletes a crash (or a failing store) cut short: a deleted conversation never comes back. */
  async finishInterrupted(store: FileStore, logger: FastifyBaseLogger): Promise<void> {
    for (const hex of await listTombstones(store)) {
      this.#deleted.add(hex);
      try {
        await finishDeletion(store, hex);
        logger.info({ conversationId: hyphenate(hex) }, 'interrupted delete finished');
      } catch (error) {
        this.#tombstoned.add(hex);
        logger.error({ conversationId: hyphenate(hex), err: error }, 'interrupted delete could not be finished');
      }
    }
  }

  /** True while a delete of `hex` is under way. */
  isDeleting(hex: string): boolean {
    return this.#deleting.has(hex);
  }

  /** True while `hex` cannot be created again: its delete is under way or could not be finished. */
  blocksCreate(hex: string): boolean {
    return this.#deleting.has(hex) || this.#tombstoned.has(hex);
  }

  /** True when this process deleted `hex` (or finished its interrupted delete). */
  isDeleted(hex: string): boolean {
    return this.#deleted.has(hex);
  }

  /** True while `hex` is being deleted, or once it was. */
  wasDeleted(hex: string): boolean {
    return this.#deleting.has(hex) || this.#deleted.has(hex) || this.#tombstoned.has(hex);
  }

  /** A conversation was created again with this id. */
  forget(hex: string): void {
    this.#deleted.delete(hex);
  }

  /**
   * Deletes the conversation's directory: a tombstone is written first so that a crash cannot resurrect it; a
   * running conversation is paused (bounded wait); then its store is revoked and the files are removed.
   */
  async delete(hex: string, conversation: ManagedConversation, request: DeleteRequest): Promise<void> {
    const deletion = this.#delete(conversation, request);
    this.#deleting.set(hex, deletion);
    try {
      await deletion;
    } finally {
      this.#deleting.delete(hex);
    }
  }

  async #delete(conversation: ManagedConversation, request: DeleteRequest): Promise<void> {
    const { hex } = conversation;
    const { store, logger } = request;
    try {
      await writeTombstone(store, hex);
    } catch (error) {
      // Nothing was removed: the conversation stays as it was.
      request.onNotDeleted();
      throw error;
    }
    this.#deleted.add(hex);
    conversation.markDeleted();
    if (conversation.isRunning) {
      // Interrupted, not paused: a pause waits for the step under way (a model call can take minutes, a tool
      // longer), and nothing the run does now can be kept.
      await conversation.interrupt().catch(() => undefined);
      const ended = await conversation.waitForRun(request.runTimeoutMs);
      if (!ended) logger.warn({ conversationId: conversation.id }, 'delete: run still going; cutting it off');
    }
    await conversation.releaseProcesses();
    await request.revoke();
    try {
      await finishDeletion(store, hex);
    } catch (error) {
      this.#tombstoned.add(hex);
      logger.error({ conversationId: conversation.id, err: error }, 'delete: files not removed yet (tombstoned)');
    }
    logger.info({ conversationId: conversation.id }, 'conversation deleted');
  }
}
