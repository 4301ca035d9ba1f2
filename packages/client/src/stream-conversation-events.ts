import { type AnyEvent, safeParseEvent } from '@x/events';
import { RemoteAuthError } from './errors/remote-auth-error.js';
import { RemoteConversationNotFoundError } from './errors/remote-conversation-not-found-error.js';
import { RemoteRequestError } from './errors/remote-request-error.js';
import { RemoteStreamClosedError } from './errors/remote-stream-closed-error.js';
import { RemoteTimeoutError } from './errors/remote-timeout-error.js';
import { type EventSocket, loadEventSocket, type OpenEventSocket } from './internal/event-socket.js';
import { RestClient } from './internal/rest-client.js';
import { SeenEvents } from './internal/seen-events.js';
import { findTimestampStart } from './internal/timestamp-start.js';

/**
 * Reconnection after a dropped stream: delays double from `initialDelayMs` up to `maxDelayMs`, each one
 * jittered (a random delay between half and all of it), so clients dropped together do not come back together.
 */
export interface ReconnectOptions {
  /** Default 1,000 ms. */
  initialDelayMs?: number;
  /** Default 30,000 ms. */
  maxDelayMs?: number;
  /** Consecutive failed attempts before giving up; default unlimited. */
  maxAttempts?: number;
  /**
   * Whether to keep trying when the very first connection fails (nothing received yet: wrong URL, no
   * server, a server that never answers). Default false: `done` (and `ready`) reject at once with the reason.
   */
  retryFirstConnection?: boolean;
}

/**
 * How reconnects resume: `index` (`from_index`, an x server), `timestamp` (`resend_mode=since`, a server in
 * the reference's shape; replayed events are dropped by id) or `auto`: the server's upgrade response says
 * which, where its headers are visible (`ws`); where they are not (a browser's WebSocket), `index`. Where it may be
 * `timestamp`, the start (`fromIndex`) is read over REST before connecting (`events/count` and a newest-first
 * `events/search`) and the first connection replays from it too, so no event appended meanwhile is lost.
 */
export type ResumeMode = 'auto' | 'index' | 'timestamp';

export interface StreamConversationEventsOptions {
  /**
   * Session API key: the `X-Session-API-Key` header of the upgrade with `ws`; with the platform's WebSocket,
   * which cannot set headers, the first frame (`{"type":"auth","session_api_key":…}`), never the URL.
   */
  apiKey?: string;
  /** Default `auto`. */
  resume?: ResumeMode;
  /**
   * Index of the first persisted event wanted. Negative counts back from the end of the log when the stream
   * starts (as `Array.prototype.at`): `-50` is the last 50 events, then live. Default: the log's length now
   * (live events only).
   */
  fromIndex?: number;
  /**
   * Every frame, in order: persisted events with their log index; published-only ones (full_state
   * snapshots, streaming deltas, server errors) with `undefined`. A throw here (or in `onReady`) ends the
   * stream: `done` rejects with what was thrown, and `nextIndex` is the event it was thrown on, so an attach
   * from there gets that event again.
   */
  onEvent: (event: AnyEvent, index: number | undefined) => void;
  /** Called each time a (re)connection is subscribed, right after its full_state snapshot. */
  onReady?: (info: { reconnected: boolean }) => void;
  /** Called when the connection drops and a reconnect is scheduled. */
  onDisconnect?: (info: { code: number; reason: string; retryInMs: number }) => void;
  /** Aborting ends the stream (`done` resolves). */
  signal?: AbortSignal;
  /** `false` ends the stream with `RemoteStreamClosedError` at the first drop. Default: on, 1 s doubling to 30 s. */
  reconnect?: boolean | ReconnectOptions;
  /** How long a connection may take to deliver its full_state snapshot. Default 30,000 ms. */
  readyTimeoutMs?: number;
}

/** A running stream of a conversation's events. */
export interface ConversationEventStream {
  /** Index the next persisted event will have: the `from_index` of the next reconnect. */
  readonly nextIndex: number;
  /**
   * How reconnects resume: `index` (our server's `from_index`), or `timestamp` against a server in the
   * reference's shape (`resend_mode=since`, duplicates dropped by id); undefined before the first connection.
   */
  readonly resumeMode: 'index' | 'timestamp' | undefined;
  /** Resolves once the first connection is subscribed; rejects if the stream fails before that. */
  readonly ready: Promise<void>;
  /** Resolves when the stream is closed (by `close()` or the signal); rejects on a fatal error. */
  readonly done: Promise<void>;
  close(): void;
}

/** Frames that are not persisted events, so do not advance the index (docs/design.md, "Resuming a stream"). */
export function isPersistedFrame(event: { kind: string; key?: unknown }): boolean {
  if (event.kind === 'StreamingDeltaEvent' || event.kind === 'ServerErrorEvent') return false;
  return !(event.kind === 'ConversationStateUpdateEvent' && event.key === 'full_state');
}

/**
 * Streams a conversation's events over `/sockets/events/{id}` and keeps doing so across dropped
 * connections: each reconnect asks for `from_index` = the number of persisted events received so far,
 * so nothing is lost or repeated. Close codes 4001 (auth) and 4004 (unknown conversation) are fatal.
 */
export function streamConversationEvents(
  serverUrl: string,
  conversationId: string,
  options: StreamConversationEventsOptions,
): ConversationEventStream {
  const rest = new RestClient(serverUrl, options.apiKey);
  const reconnect =
    options.reconnect === false ? undefined : options.reconnect === true ? {} : (options.reconnect ?? {});
  const maxDelay = reconnect?.maxDelayMs ?? 30_000;
  // The cap holds for the first delay too: `maxDelayMs: 0` reconnects at once, whatever the initial delay.
  const initialDelay = Math.min(reconnect?.initialDelayMs ?? 1_000, maxDelay);
  const maxAttempts = reconnect?.maxAttempts ?? Number.POSITIVE_INFINITY;
  const retryFirstConnection = reconnect?.retryFirstConnection === true;
  let everReady = false;
  const readyTimeoutMs = options.readyTimeoutMs ?? 30_000;
  const stopper = new AbortController();
  const stop = (): void => stopper.abort();
  options.signal?.addEventListener('abort', stop, { once: true });
  if (options.signal?.aborted) stop();

  // Undefined or negative: resolved against the log's length (`events/count`) when the stream starts.
  const fromEnd = options.fromIndex === undefined || options.fromIndex < 0 ? (options.fromIndex ?? 0) : undefined;
  let nextIndex = fromEnd === undefined ? (options.fromIndex ?? 0) : -1;
  let current: EventSocket | undefined;
  let openSocket: OpenEventSocket | undefined;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  let resumeMode: 'index' | 'timestamp' | undefined =
    options.resume === 'index' || options.resume === 'timestamp' ? options.resume : undefined;
  /** Timestamp mode: the newest persisted event known, and the ids of the recent ones (for dropping replays). */
  let lastTimestamp: string | undefined;
  /** Timestamp mode, until an event is known: whether the stream starts at the log's beginning (`resend_mode=all`). */
  let fromLogStart = false;
  const seen = new SeenEvents();
  /** What a listener threw: the stream ends with it, never as an exception inside the socket's handler. */
  let listenerFailure: { error: unknown } | undefined;

  const streamUrl = (): string => {
    const base = rest.serverUrl.replace(/^http/, 'ws');
    const url = `${base}/sockets/events/${encodeURIComponent(conversationId)}`;
    const replay =
      lastTimestamp !== undefined
        ? `resend_mode=since&after_timestamp=${encodeURIComponent(lastTimestamp)}`
        : fromLogStart
          ? 'resend_mode=all'
          : undefined;
    if (resumeMode === 'timestamp') return replay === undefined ? url : `${url}?${replay}`;
    // Before the first upgrade says which (auto), both: an x server takes `from_index` over `resend_mode`.
    const byIndex = `${url}?from_index=${nextIndex}`;
    return resumeMode === undefined && replay !== undefined ? `${byIndex}&${replay}` : byIndex;
  };

  /** One connection: resolves with how it ended and whether it got as far as its snapshot. */
  const connectOnce = (
    open: OpenEventSocket,
  ): Promise<{ code: number; reason: string; wasReady: boolean; cause?: unknown }> =>
    new Promise((resolve) => {
      let wasReady = false;
      let outcome: { code: number; reason: string; cause?: unknown } | undefined;
      const ws = open(streamUrl(), {
        apiKey: options.apiKey,
        handlers: {
          onOpen(resumesByIndex) {
            // Only the first connection to open decides (`??=`): later ones resume the way it did.
            resumeMode ??= resumesByIndex === false ? 'timestamp' : 'index';
          },
          onRefused(status) {
            outcome = {
              code: status === 401 || status === 403 ? 4001 : status === 404 ? 4004 : 1006,
              reason: `HTTP ${status}`,
            };
          },
          onError(message, cause) {
            outcome ??= { code: 1006, reason: message, cause };
          },
          onMessage(text) {
            if (listenerFailure !== undefined) return;
            const parsed = parseFrame(text);
            if (parsed === undefined) return;
            if (!parsed.success) {
              // Unusable here, but it still holds its index in the log: skip it without repeating it on resume.
              if (parsed.persisted) nextIndex += 1;
              return;
            }
            const event = parsed.event;
            const persisted = isPersistedFrame(event);
            if (persisted && resumeMode === 'timestamp') {
              // A replayed event already received: dropped, so nothing is repeated.
              if (seen.has(event.id)) return;
              seen.add(event.id);
              const stamp = (event as { timestamp?: unknown }).timestamp;
              if (typeof stamp === 'string' && (lastTimestamp === undefined || stamp > lastTimestamp))
                lastTimestamp = stamp;
            }
            const index = persisted ? nextIndex++ : undefined;
            try {
              options.onEvent(event, index);
              if (!wasReady && event.kind === 'ConversationStateUpdateEvent' && event.key === 'full_state') {
                wasReady = true;
                everReady = true;
                clearTimeout(readyTimer);
                markReady();
                options.onReady?.({ reconnected: connections > 1 });
              }
            } catch (error) {
              // The event the listener failed on was not taken: an attach from `nextIndex` gets it again.
              if (index !== undefined) nextIndex = index;
              listenerFailure = { error };
              ws.terminate();
            }
          },
          onClose(code, reason) {
            clearTimeout(readyTimer);
            if (current === ws) current = undefined;
            resolve({ ...(outcome ?? { code, reason }), wasReady });
          },
        },
      });
      current = ws;
      const readyTimer = setTimeout(() => {
        outcome = {
          code: 1006,
          reason: 'no full_state snapshot in time',
          cause: new RemoteTimeoutError('the event stream', readyTimeoutMs),
        };
        ws.terminate();
      }, readyTimeoutMs);
    });

  let connections = 0;
  const run = async (): Promise<void> => {
    openSocket ??= await loadEventSocket();
    if (resumeMode === 'timestamp' || (resumeMode === undefined && openSocket.readsUpgradeHeaders)) {
      // The start is read before the first connection, which resumes from it: read after the upgrade, an event
      // appended meanwhile would be both the start (so dropped as seen when it arrives) and a live one.
      const start = await findTimestampStart(
        rest,
        conversationId,
        fromEnd === undefined ? { fromIndex: nextIndex } : { fromEnd },
      );
      nextIndex = start.index;
      fromLogStart = start.index === 0;
      if (start.baseline !== undefined) {
        seen.add(start.baseline.id);
        lastTimestamp = start.baseline.timestamp;
      }
    } else if (fromEnd !== undefined) {
      const length = await rest.request<number>(
        'GET',
        `/api/conversations/${encodeURIComponent(conversationId)}/events/count`,
        { conversationId },
      );
      nextIndex = Math.max(0, length + fromEnd);
    }
    let attempts = 0;
    let delay = initialDelay;
    while (!stopper.signal.aborted) {
      connections += 1;
      const ended = await connectOnce(openSocket);
      if (listenerFailure !== undefined) throw listenerFailure.error;
      if (stopper.signal.aborted) return;
      if (ended.code === 4001) {
        const status = httpStatusOf(ended.reason);
        throw new RemoteAuthError(streamUrl(), { ...(status === undefined ? {} : { status }), cause: ended.cause });
      }
      if (ended.code === 4004) throw new RemoteConversationNotFoundError({ conversationId, serverUrl: rest.serverUrl });
      if (ended.wasReady) {
        attempts = 0;
        delay = initialDelay;
      }
      attempts += 1;
      if (!everReady && !retryFirstConnection) throw firstConnectionError(rest.serverUrl, streamUrl(), ended);
      if (reconnect === undefined || attempts > maxAttempts) {
        throw new RemoteStreamClosedError({
          url: streamUrl(),
          closeCode: ended.code,
          reason: ended.reason,
          cause: ended.cause,
        });
      }
      const wait = jittered(delay);
      options.onDisconnect?.({ code: ended.code, reason: ended.reason, retryInMs: wait });
      await sleep(wait, stopper.signal);
      delay = Math.min(delay * 2, maxDelay);
    }
  };

  stopper.signal.addEventListener('abort', () => current?.close(1000, 'Client closed'), { once: true });
  const done = run().finally(() => {
    options.signal?.removeEventListener('abort', stop);
    current?.terminate();
  });
  // Whoever awaits only `ready` must still see a failure before the first snapshot.
  const readyOrFailure = Promise.race([ready, done.then(() => undefined)]);
  done.catch(() => undefined);
  readyOrFailure.catch(() => undefined);

  return {
    get nextIndex() {
      return nextIndex;
    },
    get resumeMode() {
      return resumeMode;
    },
    ready: readyOrFailure,
    done,
    close: stop,
  };
}

/** A random delay between half and all of `delay` ("equal jitter"). */
function jittered(delay: number): number {
  return Math.round(delay / 2 + Math.random() * (delay / 2));
}

/** The first connection never got as far as its snapshot: a request error (status 0 = no answer) or the timeout. */
function firstConnectionError(
  serverUrl: string,
  url: string,
  ended: { code: number; reason: string; cause?: unknown },
): Error {
  if (RemoteTimeoutError.isInstance(ended.cause)) return ended.cause as Error;
  return new RemoteRequestError({
    method: 'GET',
    url,
    status: httpStatusOf(ended.reason) ?? 0,
    detail: `could not open the event stream of ${serverUrl}: ${ended.reason === '' ? `closed with ${ended.code}` : ended.reason}`,
    cause: ended.cause,
  });
}

/** The status of an upgrade the server refused (`onRefused` names it `HTTP <status>`). */
function httpStatusOf(reason: string): number | undefined {
  const status = /^HTTP (\d+)$/.exec(reason)?.[1];
  return status === undefined ? undefined : Number(status);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

type ParsedFrame = { success: true; event: AnyEvent } | { success: false; persisted: boolean };

function parseFrame(text: string): ParsedFrame | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = safeParseEvent(value);
  if (parsed.success) return { success: true, event: parsed.event };
  const record = typeof value === 'object' && value !== null ? (value as { kind?: unknown; key?: unknown }) : {};
  return {
    success: false,
    persisted: typeof record.kind === 'string' && isPersistedFrame({ kind: record.kind, key: record.key }),
  };
}
