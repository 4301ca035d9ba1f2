import type { ManagedConversation } from './managed-conversation.js';

/**
 * The manager's conversations by hex id: unread (only its directory is known), held strongly while open (or known
 * damaged), and held weakly while closed. A closed conversation's object is only its meta and bookkeeping (a few KB),
 * but 10,000 of them, listed once and released, were most of the heap left after release. Held weakly, one goes
 * when nothing else refers to it, and the next use reads its meta.json again. Never two objects for one
 * conversation: one still referred to (by a request, task or stream) is found again through its weak reference,
 * and one is held strongly as it opens (`hold`, while its opener still refers to it), so an open conversation is
 * never collected.
 */
export class ConversationEntries {
  readonly #entries = new Map<string, ManagedConversation | WeakRef<ManagedConversation> | undefined>();

  get size(): number {
    return this.#entries.size;
  }

  has(hex: string): boolean {
    return this.#entries.has(hex);
  }

  /** Every known hex id, read or not. */
  keys(): IterableIterator<string> {
    return this.#entries.keys();
  }

  /** The conversation's object when one exists (not collected), else undefined. */
  get(hex: string): ManagedConversation | undefined {
    const entry = this.#entries.get(hex);
    return entry instanceof WeakRef ? entry.deref() : entry;
  }

  /** Records that the conversation exists but its meta.json has not been read. */
  setUnread(hex: string): void {
    this.#entries.set(hex, undefined);
  }

  /** Records the conversation's object: strongly when it is open, weakly when it is closed. */
  set(conversation: ManagedConversation): void {
    this.#entries.set(conversation.hex, conversation.isOpen ? conversation : new WeakRef(conversation));
  }

  delete(hex: string): void {
    this.#entries.delete(hex);
  }

  /** The conversations held strongly (every open one is). */
  *held(): IterableIterator<ManagedConversation> {
    for (const entry of this.#entries.values()) {
      if (entry !== undefined && !(entry instanceof WeakRef)) yield entry;
    }
  }

  /** Holds the conversation strongly (it opened, or was found damaged); a no-op unless it is this hex's object. */
  hold(conversation: { readonly hex: string }): void {
    const entry = this.#entries.get(conversation.hex);
    const known = entry instanceof WeakRef ? entry.deref() : undefined;
    if (known !== undefined && known === conversation) this.#entries.set(conversation.hex, known);
  }

  /**
   * Holds the released conversations weakly (those still this hex's object, unless one opened again meanwhile),
   * and forgets the weakly held ones already collected.
   */
  holdWeakly(released: readonly ManagedConversation[]): void {
    for (const conversation of released) {
      if (this.#entries.get(conversation.hex) === conversation) this.set(conversation);
    }
    for (const [hex, entry] of this.#entries) {
      if (entry instanceof WeakRef && entry.deref() === undefined) this.#entries.set(hex, undefined);
    }
  }
}
