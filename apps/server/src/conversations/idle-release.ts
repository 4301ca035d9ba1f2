import type { Conversation } from '@x/agent';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The idle-release side of one server conversation: when it was last used (the clock of `deps.now`), and the
 * release under way (closing it, then writing meta.json), which opening waits for so that the next open resumes
 * from what the release wrote.
 */
export class IdleRelease {
  readonly #now: () => number;
  readonly #logger: FastifyBaseLogger;
  readonly #conversationId: string;
  #lastUsed: number;
  #releasing: Promise<void> | undefined;

  constructor(options: { now: () => number; logger: FastifyBaseLogger; conversationId: string }) {
    this.#now = options.now;
    this.#logger = options.logger;
    this.#conversationId = options.conversationId;
    this.#lastUsed = options.now();
  }

  /** When the conversation was last opened or handed out. */
  get lastUsed(): number {
    return this.#lastUsed;
  }

  /** Records a use now. */
  touch(): void {
    this.#lastUsed = this.#now();
  }

  /** The release under way, if any. */
  get releasing(): Promise<void> | undefined {
    return this.#releasing;
  }

  /** Closes `conversation` (let go by its holder), then saves meta.json; the release under way until then. */
  async release(conversation: Conversation, saveMeta: () => Promise<void>): Promise<void> {
    this.#releasing = (async () => {
      await conversation.close();
      await saveMeta().catch(() => undefined);
    })().finally(() => {
      this.#releasing = undefined;
    });
    await this.#releasing;
    this.#logger.debug({ conversationId: this.#conversationId }, 'idle conversation released');
  }
}
