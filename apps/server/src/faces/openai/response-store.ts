import { ServerConfigError } from '../../config/server-config-error.js';
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
 * `previous_response_id`. Bounded (a long-lived server does not grow without end): past `capacity` the response
 * written longest ago is forgotten, a response's newer state (its end) counting as a write, so a response that just
 * ended stays to be continued. A capacity of 0 keeps none, as if every request said `store: false`. A restart forgets
 * them all, and each replica keeps its own; the conversations themselves stay in the log and are continued by their id
 * (the `X-OpenHands-ServerConversation-ID` header) whatever happened to the response.
 */
export class ResponseStore {
  readonly #capacity: number;
  readonly #responses = new Map<string, StoredResponse>();

  /** @throws ServerConfigError when `capacity` is not a whole number of at least 0. */
  constructor(capacity = DEFAULT_RESPONSE_CAPACITY) {
    // A fraction, NaN or Infinity would leave the store unbounded or its bound unclear.
    if (!Number.isSafeInteger(capacity) || capacity < 0) {
      throw new ServerConfigError({
        setting: 'responseStore.capacity',
        message: `The response store's capacity must be a whole number of responses, 0 or more (0 keeps none), not ${capacity}`,
      });
    }
    this.#capacity = capacity;
  }

  get(id: string): StoredResponse | undefined {
    return this.#responses.get(id);
  }

  /** Keeps the response, or its newer state (a response is kept when it starts and again when it ends). */
  set(entry: StoredResponse): void {
    if (this.#capacity === 0) return;
    const id = entry.response.id;
    // Written anew, the response becomes the newest: the map's order is the order of the last writes.
    this.#responses.delete(id);
    while (this.#responses.size >= this.#capacity) {
      const oldest = this.#responses.keys().next().value;
      if (oldest === undefined) break;
      this.#responses.delete(oldest);
    }
    this.#responses.set(id, entry);
  }
}
