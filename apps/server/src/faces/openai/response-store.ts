import type { ResponseObject } from './response-object.js';

/** A response the gateway made, with what a follow-up needs: the conversation it ran in and its system text. */
export interface StoredResponse {
  response: ResponseObject;
  conversationId: string;
  /** The system text the conversation started with (instructions and system/developer messages). */
  system: string;
}

/** How many responses a server keeps by default: the newest, older ones are forgotten first. */
export const DEFAULT_RESPONSE_CAPACITY = 1000;

/**
 * The responses of `POST /v1/responses` a server keeps, in its memory, for `GET /v1/responses/{id}` and
 * `previous_response_id`. Bounded (a long-lived server does not grow without end): past `capacity` the oldest is
 * forgotten. A restart forgets them all, and each replica keeps its own; the conversations themselves stay in the log
 * and are continued by their id (the `X-OpenHands-ServerConversation-ID` header) whatever happened to the response.
 */
export class ResponseStore {
  readonly #capacity: number;
  readonly #responses = new Map<string, StoredResponse>();

  constructor(capacity = DEFAULT_RESPONSE_CAPACITY) {
    this.#capacity = capacity;
  }

  get(id: string): StoredResponse | undefined {
    return this.#responses.get(id);
  }

  /** Keeps the response, or its newer state (a response is kept when it starts and again when it ends). */
  set(entry: StoredResponse): void {
    const id = entry.response.id;
    if (!this.#responses.has(id)) {
      while (this.#responses.size >= this.#capacity) {
        const oldest = this.#responses.keys().next().value;
        if (oldest === undefined) break;
        this.#responses.delete(oldest);
      }
    }
    this.#responses.set(id, entry);
  }
}
