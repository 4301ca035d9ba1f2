import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { actAs, type Caller, principalOfKey } from '../security/request-caller.js';
import { isAuthFrame } from './client-frame.js';
import { CloseCode } from './close-codes.js';
import { closeSocket } from './close-socket.js';
import type { EventSocketHost } from './event-socket-host.js';
import { type EventSocketOptions, resolveEventSocketOptions } from './event-socket-options.js';
import { EventSocketSession } from './event-socket-session.js';
import { resolveReplayStart } from './replay-start.js';
import { RESUME_HEADER } from './resume-header.js';
import { isValidSessionKey } from './session-keys.js';

/** What `attachEventSockets` returns. */
export interface EventSockets {
  /** Stops accepting sockets, closes every open one with 1001 and waits for them to go. */
  close(): Promise<void>;
}

const EVENTS_PATH = /^\/sockets\/events\/([^/]+)\/?$/;
/** Client frames are messages; a bigger frame is refused by `ws` (close 1009) instead of being buffered. */
const MAX_CLIENT_FRAME_BYTES = 16 * 1024 * 1024;
const AUTHENTICATION_FAILED = 'Authentication failed';

type AuthState = 'none' | 'valid' | 'invalid' | 'pending';

/**
 * Serves `GET /sockets/events/{conversation_id}` (reference §11.4, plus resume by `from_index` /
 * `after_event_id`) on `httpServer`'s upgrade requests; other upgrade paths get a 404. A key given in
 * the query or the `X-Session-API-Key` header is checked before anything is read: a wrong one is
 * accepted and closed at once with 4001, so clients see one close code for every auth failure.
 */
export function attachEventSockets(
  httpServer: Server,
  host: EventSocketHost,
  options: EventSocketOptions = {},
): EventSockets {
  const settings = resolveEventSocketOptions(options);
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_FRAME_BYTES });
  // Tells clients this server resumes by index (`from_index`); the reference's server does not, and its
  // clients fall back to `resend_mode=since` (see @x/client's stream-conversation-events.ts).
  wss.on('headers', (headers) => {
    headers.push(`${RESUME_HEADER}: from_index`);
  });
  const subscribers = new Map<string, number>();
  const alive = new WeakMap<WebSocket, boolean>();
  let closing = false;

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    // Host/Origin first (DNS rebinding, cross-site pages), for every upgrade whatever its path.
    const refused = options.checkRequest?.(request);
    if (refused !== undefined) {
      rejectUpgrade(socket, `${refused.status} Forbidden`, JSON.stringify({ detail: refused.detail }));
      return;
    }
    let url: URL;
    try {
      url = new URL(request.url ?? '/', 'http://localhost');
    } catch {
      rejectUpgrade(socket, '400 Bad Request');
      return;
    }
    const conversationId = decodePathSegment(EVENTS_PATH.exec(url.pathname)?.[1]);
    if (conversationId === undefined || closing) {
      rejectUpgrade(socket, closing ? '503 Service Unavailable' : '404 Not Found');
      return;
    }
    const auth = authenticateUpgrade(host.apiKeys, url.searchParams, request);
    wss.handleUpgrade(request, socket, head, (ws) => {
      alive.set(ws, true);
      ws.on('pong', () => alive.set(ws, true));
      void serve(ws, { conversationId, query: url.searchParams, request, auth });
    });
  };

  async function serve(
    ws: WebSocket,
    init: { conversationId: string; query: URLSearchParams; request: IncomingMessage; auth: AuthState },
  ): Promise<void> {
    const { conversationId } = init;
    const log = host.logger;
    // Frames are queued from the start so that none is lost while auth and loading are awaited.
    const early: string[] = [];
    let session: EventSocketSession | undefined;
    let onFirstFrame: ((text: string) => void) | undefined;
    // The frames of this socket act as the key that opened it (query, header or auth frame). They only send
    // messages: a run one starts on a waiting conversation is judged by the run's own approval check.
    const callerOf = (key: string | undefined): Caller => ({
      principal: principalOfKey(host.apiKeys, key),
      mayDecide: false,
    });
    let caller = callerOf(presentedKey(init.query, init.request));
    const receive = (target: EventSocketSession, text: string): void => actAs(caller, () => target.receive(text));
    ws.on('message', (data: RawData) => {
      const text = rawDataText(data);
      if (onFirstFrame !== undefined) onFirstFrame(text);
      else if (session !== undefined) receive(session, text);
      else if (early.length < 100) early.push(text);
    });
    ws.on('error', (error) => log.debug({ err: error, conversationId }, 'event socket error'));

    if (init.auth === 'invalid') {
      closeSocket(ws, CloseCode.authenticationFailed, AUTHENTICATION_FAILED, settings.closeTimeoutMs);
      return;
    }
    if (init.auth === 'pending') {
      const key = await awaitAuthFrame();
      if (key === undefined) {
        closeSocket(ws, CloseCode.authenticationFailed, AUTHENTICATION_FAILED, settings.closeTimeoutMs);
        return;
      }
      caller = callerOf(key);
    }

    let conversation: Awaited<ReturnType<EventSocketHost['open']>>;
    try {
      conversation = await host.open(conversationId);
    } catch (error) {
      log.error({ err: error, conversationId }, 'event socket: opening the conversation failed');
      closeSocket(ws, 1011, 'Opening the conversation failed', settings.closeTimeoutMs);
      return;
    }
    if (ws.readyState !== WebSocket.OPEN) return;
    if (conversation === undefined) {
      closeSocket(ws, CloseCode.conversationNotFound, 'Conversation not found', settings.closeTimeoutMs);
      return;
    }
    const count = subscribers.get(conversationId) ?? 0;
    if (count >= settings.maxSubscribersPerConversation) {
      closeSocket(ws, CloseCode.tryAgainLater, 'Too many connections for this conversation', settings.closeTimeoutMs);
      return;
    }
    subscribers.set(conversationId, count + 1);
    const created = new EventSocketSession({ ws, conversation, options: settings, logger: log });
    const stopOnDelete = conversation.onDeleted?.(() => {
      created.stop();
      closeSocket(ws, CloseCode.conversationNotFound, 'Conversation deleted', settings.closeTimeoutMs);
    });
    ws.once('close', () => {
      stopOnDelete?.();
      created.stop();
      const left = (subscribers.get(conversationId) ?? 1) - 1;
      if (left > 0) subscribers.set(conversationId, left);
      else subscribers.delete(conversationId);
    });

    let start: Awaited<ReturnType<typeof resolveReplayStart>>;
    try {
      start = await resolveReplayStart(init.query, conversation.log);
    } catch (error) {
      log.error({ err: error, conversationId }, 'event socket: finding the replay start failed');
      closeSocket(ws, 1011, 'Reading the event log failed', settings.closeTimeoutMs);
      return;
    }
    if (ws.readyState !== WebSocket.OPEN) return;
    if ('invalid' in start) {
      closeSocket(ws, CloseCode.invalidRequest, start.invalid, settings.closeTimeoutMs);
      return;
    }
    session = created;
    session.start(start.fromIndex);
    for (const text of early.splice(0)) receive(session, text);

    /** Resolves with the key once the first frame is a valid auth frame; undefined on anything else or the timeout. */
    function awaitAuthFrame(): Promise<string | undefined> {
      return new Promise((resolve) => {
        const finish = (key: string | undefined): void => {
          clearTimeout(timer);
          onFirstFrame = undefined;
          ws.off('close', onClose);
          resolve(key);
        };
        const onClose = (): void => finish(undefined);
        const timer = setTimeout(() => finish(undefined), settings.authTimeoutMs);
        ws.once('close', onClose);
        onFirstFrame = (text) => {
          let value: unknown;
          try {
            value = JSON.parse(text);
          } catch {
            finish(undefined);
            return;
          }
          const key = isAuthFrame(value) ? value.session_api_key : undefined;
          finish(isValidSessionKey(host.apiKeys, key) ? (key as string) : undefined);
        };
      });
    }
  }

  httpServer.on('upgrade', onUpgrade);

  const heartbeat =
    settings.heartbeatIntervalMs > 0
      ? setInterval(() => {
          for (const ws of wss.clients) {
            if (alive.get(ws) === false) {
              ws.terminate();
              continue;
            }
            alive.set(ws, false);
            ws.ping();
          }
        }, settings.heartbeatIntervalMs)
      : undefined;
  heartbeat?.unref();

  return {
    async close(): Promise<void> {
      if (closing) return;
      closing = true;
      httpServer.off('upgrade', onUpgrade);
      clearInterval(heartbeat);
      const gone = [...wss.clients].map(
        (ws) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === WebSocket.CLOSED) resolve();
            else ws.once('close', () => resolve());
            closeSocket(ws, CloseCode.goingAway, 'Server shutting down', settings.closeTimeoutMs);
          }),
      );
      await Promise.all(gone);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** The reference's precedence: the query key wins over the header; with neither, the first frame must authenticate. */
function presentedKey(query: URLSearchParams, request: IncomingMessage): string | undefined {
  const header = request.headers['x-session-api-key'];
  return query.get('session_api_key') ?? (Array.isArray(header) ? header[0] : header);
}

function authenticateUpgrade(keys: readonly string[], query: URLSearchParams, request: IncomingMessage): AuthState {
  if (keys.length === 0) return 'none';
  const presented = presentedKey(query, request);
  if (presented === undefined) return 'pending';
  return isValidSessionKey(keys, presented) ? 'valid' : 'invalid';
}

function rejectUpgrade(socket: Duplex, status: string, body = ''): void {
  // Destroying right after `end` could discard the response: wait until it is written.
  socket.once('finish', () => socket.destroy());
  const type = body === '' ? '' : 'Content-Type: application/json\r\n';
  socket.end(
    `HTTP/1.1 ${status}\r\nConnection: close\r\n${type}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

function decodePathSegment(segment: string | undefined): string | undefined {
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function rawDataText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  return Buffer.from(data).toString('utf8');
}
