import { isDeepStrictEqual } from 'node:util';
import { STATE_DELTA_KEY } from '@x/agent';
import type { AnyEvent, TextContent } from '@x/events';
import { AgUiRunError } from './ag-ui-run-error.js';
import type { AgUiEvent } from './agui-events.js';

/**
 * The most JSON the shared state may hold (UTF-8 bytes), as stored once a run input is applied: it is recorded in the
 * log and shown whole to the model on every run that shares state.
 */
export const MAX_SHARED_STATE_BYTES = 64 * 1024;

type SharedState = Readonly<Record<string, unknown>>;

/** A JSON Pointer segment (RFC 6901). */
function pointer(key: string): string {
  return `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The shared state of the AG-UI face is the conversation's session state (`conversation.session`). A run input's
 * `state` is the client's view of it: each top-level key whose value differs from the server's is set (`null`
 * removes a key); a key the client does not send is left as it is, so a client that has not seen the state yet
 * (an `HttpAgent` starts with `{}`) erases nothing. Returns the session `state_delta` to record, undefined when
 * nothing differs. A `state` that is not a JSON object is `invalid_state`, and so is one that would leave the shared
 * state larger than `MAX_SHARED_STATE_BYTES`: the bound is on the state as stored, after the input is merged in, or
 * inputs of different keys would grow it without end. A state already over the bound (written before it held, or by
 * another writer) may shrink, or change without growing.
 */
export function sharedStateDeltaOf(state: unknown, current: SharedState): Record<string, unknown> | undefined {
  if (state === undefined || state === null) return undefined;
  if (!isJsonObject(state)) {
    const kind = Array.isArray(state) ? 'an array' : `a ${typeof state}`;
    throw new AgUiRunError('invalid_state', `state: the shared state must be a JSON object, got ${kind}`);
  }
  const delta: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(state)) {
    if (value === null ? Object.hasOwn(current, key) : !isDeepStrictEqual(current[key], value)) delta[key] = value;
  }
  if (Object.keys(delta).length === 0) return undefined;
  const bytes = jsonBytes(merged(current, delta));
  if (bytes > MAX_SHARED_STATE_BYTES && bytes > jsonBytes(current)) {
    throw new AgUiRunError(
      'invalid_state',
      `state: the shared state would hold ${bytes} bytes of JSON with this input, more than the ${MAX_SHARED_STATE_BYTES} it may hold`,
    );
  }
  return delta;
}

function jsonBytes(state: SharedState): number {
  return Buffer.byteLength(JSON.stringify(state));
}

/** The shared state once `delta` is applied, as the session stores it (`null` removes a key). */
function merged(current: SharedState, delta: Readonly<Record<string, unknown>>): SharedState {
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(delta)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}

/** How the text of the shared state begins: how the log's shared-state texts are told from other extended content. */
export const SHARED_STATE_OPENING = "<shared_state>\nThe state the user's application shares with you, as JSON:\n";

/** The shared state as the model reads it, on the user message of a run whose input shares state. */
export function sharedStateContent(state: SharedState): TextContent {
  return {
    cache_prompt: false,
    type: 'text',
    text: `${SHARED_STATE_OPENING}${JSON.stringify(state)}\n</shared_state>`,
  };
}

/**
 * What a client of one stream knows of the shared state: the snapshot it got, then every session-state update of
 * the log as a JSON Patch (`add` sets a key, `remove` drops one the view has), so the patches always apply.
 */
export class SharedStateView {
  readonly #state: Record<string, unknown>;

  constructor(state: SharedState) {
    this.#state = { ...state };
  }

  snapshot(): AgUiEvent {
    return { type: 'STATE_SNAPSHOT', snapshot: { ...this.#state } };
  }

  /** The STATE_DELTA of a log event: one for a session-state update that changes something, else none. */
  logged(event: AnyEvent): AgUiEvent[] {
    if (event.kind !== 'ConversationStateUpdateEvent' || event.key !== STATE_DELTA_KEY) return [];
    if (!isJsonObject(event.value)) return [];
    const delta: Extract<AgUiEvent, { type: 'STATE_DELTA' }>['delta'] = [];
    for (const [key, value] of Object.entries(event.value)) {
      if (value !== null) {
        delta.push({ op: 'add', path: pointer(key), value });
        this.#state[key] = value;
      } else if (Object.hasOwn(this.#state, key)) {
        delta.push({ op: 'remove', path: pointer(key) });
        delete this.#state[key];
      }
    }
    return delta.length === 0 ? [] : [{ type: 'STATE_DELTA', delta }];
  }
}
