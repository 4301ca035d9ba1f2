/** Whether a server conversation is deleted, and who is told once it is (its event sockets, which close). */
export class DeletionMark {
  #deleted = false;
  readonly #listeners = new Set<() => void>();
  readonly #onListenerError: (error: unknown) => void;

  constructor(onListenerError: (error: unknown) => void) {
    this.#onListenerError = onListenerError;
  }

  get isDeleted(): boolean {
    return this.#deleted;
  }

  /** Marks it deleted and tells the listeners (once). */
  mark(): void {
    if (this.#deleted) return;
    this.#deleted = true;
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch (error) {
        this.#onListenerError(error);
      }
    }
    this.#listeners.clear();
  }

  /** Calls `listener` once when the conversation is deleted, at once when it already is. */
  onDeleted(listener: () => void): () => void {
    if (this.#deleted) {
      listener();
      return () => undefined;
    }
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
