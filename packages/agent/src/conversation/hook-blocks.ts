import { type AnyEvent, createEvent } from '@x/events';
import type { ConversationState } from '../state/conversation-state.js';

type BlockKey = 'blocked_actions' | 'blocked_messages';

/** What recording a hook's block needs of the conversation. */
export interface BlocksHost {
  state(): ConversationState;
  /** Resolves once every event queued so far is applied. */
  settled(): Promise<unknown>;
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
    const reason = this.#host.state()[key][id];
    if (reason === undefined) return undefined;
    const { [id]: _removed, ...rest } = this.#host.state()[key];
    await this.#set(key, rest);
    return reason;
  }

  /** `pop` without the wait when nothing is blocked: the common case costs no await on the hot path. */
  async popIfAny(key: BlockKey, id: string | undefined): Promise<string | undefined> {
    if (id === undefined) return undefined;
    await this.#host.settled();
    if (this.#host.state()[key][id] === undefined) return undefined;
    return this.pop(key, id);
  }

  async #set(key: BlockKey, value: Record<string, string>): Promise<void> {
    this.#host.assertOpen();
    await this.#host.emit(createEvent('ConversationStateUpdateEvent', { key, value }));
    await this.#host.checkpointUnlessRunning();
  }
}
