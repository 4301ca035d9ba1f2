import type { Tool } from '@x/agent';

/**
 * The tools each conversation's client runs (AG-UI frontend tools), by conversation id: a protocol face sets them
 * for a run, the conversation reads them at every step (`ConversationOptions.clientTools`). Kept in memory only:
 * a client sends its tools with every run.
 */
export class ClientTools {
  readonly #byId = new Map<string, readonly Tool[]>();

  get(conversationId: string): readonly Tool[] {
    return this.#byId.get(conversationId) ?? [];
  }

  set(conversationId: string, tools: readonly Tool[]): void {
    if (tools.length === 0) this.#byId.delete(conversationId);
    else this.#byId.set(conversationId, tools);
  }

  /** Drops the conversation's tools if they are still `tools` (the same list): a later `set` is left as it is. */
  release(conversationId: string, tools: readonly Tool[]): void {
    if (this.#byId.get(conversationId) === tools) this.#byId.delete(conversationId);
  }
}
