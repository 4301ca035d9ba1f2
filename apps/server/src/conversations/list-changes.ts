/**
 * Listeners told when the set of conversations changes (one is created, forked or deleted here), e.g. the MCP
 * face's `notifications/resources/list_changed`. A listener that throws does not keep the others from hearing it.
 */
export class ListChanges {
  readonly #listeners = new Set<() => void>();

  /** Calls `listener` on every change from now on; returns the function that stops it. */
  on(listener: () => void): () => void {
    const entry = () => listener();
    this.#listeners.add(entry);
    return () => this.#listeners.delete(entry);
  }

  emit(): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch {
        // A listener's failure is its own (the MCP face's sends are already best-effort).
      }
    }
  }
}
