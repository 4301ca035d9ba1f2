import type { AnyEvent } from '@x/events';

/** The listeners of a conversation's published-only events (deltas, full_state snapshots): its event sockets. */
export class PublishedEvents {
  readonly #listeners = new Set<(event: AnyEvent) => void>();
  readonly #onListenerError: (error: unknown) => void;

  constructor(onListenerError: (error: unknown) => void) {
    this.#onListenerError = onListenerError;
  }

  get size(): number {
    return this.#listeners.size;
  }

  add(listener: (event: AnyEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  publish(event: AnyEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        // A failing subscriber is isolated from the others and from the conversation (§11.5).
        this.#onListenerError(error);
      }
    }
  }

  clear(): void {
    this.#listeners.clear();
  }
}
