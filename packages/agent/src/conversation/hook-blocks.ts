import { type AnyEvent, createEvent } from '@x/events';
import { ownEntry } from '../internal/own-entries.js';
import type { ConversationState } from '../state/conversation-state.js';

type BlockKey = 'blocked_actions' | 'blocked_messages';

/** What `popIfAny` answers for an action or message that is not blocked (one promise, not one a call). */
const NOT_BLOCKED: Promise<string | undefined> = Promise.resolve(undefined);

/** What recording a hook's block needs of the conversation. */
export interface BlocksHost {
  state(): ConversationState;
  /** Resolves once every event queued so far is applied. */
  settled(): Promise<unknown>;
  /** True when no event is queued (the state is final): `settled()` would not wait. */
  idle(): boolean;
  emit(event: AnyEvent): Promise<void>;
  assertOpen(): void;
  /** Writes base_state.json unless a run does it. */
  checkpointUnlessRunning(): Promise<void>;
}

/**
 * The actions and user messages hooks blocked (reference `block_action`, `block_message`): kept in the state,
 * so a block set before a restart, or by the reference, is honoured.
 */
export class HookBlocks {
  readonly #host: BlocksHost;

  constructor(host: BlocksHost) {
    this.#host = host;
  }

  async block(key: BlockKey, id: string, reason: string): Promise<void> {
    await this.#set(key, { ...this.#host.state()[key], [id]: reason });
  }

  /** Removes and returns the reason `id` was blocked, undefined if it was not. */
  async pop(key: BlockKey, id: string): Promise<string | undefined> {
    this.#host.assertOpen();
    await this.#host.settled();
    const reason = ownEntry(this.#host.state()[key], id);
    if (reason === undefined) return undefined;
    const { [id]: _removed, ...rest } = this.#host.state()[key];
    await this.#set(key, rest);
    return reason;
  }

  /**
   * `pop` without its waits when `id` is not blocked. Nothing queued (a step's events are appended before its
   * actions run): the state already holds every block set so far, so it is read at once, with no turn of the
   * event loop; otherwise after the queue settles, as `pop` reads it.
   */
  popIfAny(key: BlockKey, id: string | undefined): Promise<string | undefined> {
    if (id === undefined) return NOT_BLOCKED;
    if (this.#host.idle() && !this.#blocked(key, id)) return NOT_BLOCKED;
    return this.#popAfterSettling(key, id);
  }

  async #popAfterSettling(key: BlockKey, id: string): Promise<string | undefined> {
    await this.#host.settled();
    if (!this.#blocked(key, id)) return undefined;
    return this.pop(key, id);
  }

  /** Own entries only: an event id `constructor` or `toString` is not blocked by Object.prototype's member. */
  #blocked(key: BlockKey, id: string): boolean {
    return ownEntry(this.#host.state()[key], id) !== undefined;
  }

  async #set(key: BlockKey, value: Record<string, string>): Promise<void> {
    this.#host.assertOpen();
    await this.#host.emit(createEvent('ConversationStateUpdateEvent', { key, value }));
    await this.#host.checkpointUnlessRunning();
  }
}
