import { WebSocketUnavailableError } from '../errors/websocket-unavailable-error.js';
import { RESUME_HEADER } from './resume-header.js';

/** What one connection reports, whichever WebSocket implementation carries it. */
export interface EventSocketHandlers {
  /**
   * The upgrade succeeded. `resumesByIndex`: whether the server sent the resume header; `undefined` where
   * the platform hides the upgrade's headers (a browser's WebSocket).
   */
  onOpen(resumesByIndex: boolean | undefined): void;
  onMessage(text: string): void;
  /** The server refused the upgrade with an HTTP status (only the `ws` package can tell). */
  onRefused(status: number): void;
  onError(message: string, cause: unknown): void;
  onClose(code: number, reason: string): void;
}

export interface EventSocket {
  close(code: number, reason: string): void;
  /** Drops the connection without a closing handshake where the implementation can. */
  terminate(): void;
}

export type OpenEventSocket = ((
  url: string,
  init: { apiKey: string | undefined; handlers: EventSocketHandlers },
) => EventSocket) & {
  /** Whether `onOpen` can tell the server's resume header (whether `auto` may resolve to `timestamp`). */
  readonly readsUpgradeHeaders: boolean;
};

type OpenInit = Parameters<OpenEventSocket>[1];

let loaded: Promise<OpenEventSocket> | undefined;

/**
 * The WebSocket to stream with: the platform's (browsers, Deno, Bun, Node ≥ 22), else the optional peer
 * `ws`, imported on first use so that bundles for the browser never contain it.
 */
export function loadEventSocket(): Promise<OpenEventSocket> {
  loaded ??= choose();
  return loaded;
}

async function choose(): Promise<OpenEventSocket> {
  const Platform = (globalThis as { WebSocket?: typeof WebSocket }).WebSocket;
  if (typeof Platform === 'function') {
    return Object.assign((url: string, init: OpenInit) => openPlatformSocket(Platform, url, init), {
      readsUpgradeHeaders: false,
    });
  }
  // A specifier in a variable: bundlers leave the import alone instead of pulling `ws` into the bundle.
  const specifier = 'ws';
  let module: { WebSocket?: unknown; default?: unknown };
  try {
    module = (await import(/* @vite-ignore */ specifier)) as { WebSocket?: unknown; default?: unknown };
  } catch (error) {
    loaded = undefined;
    throw new WebSocketUnavailableError({ cause: error });
  }
  const NodeWebSocket = (module.WebSocket ?? module.default) as NodeWebSocketClass;
  return Object.assign((url: string, init: OpenInit) => openNodeSocket(NodeWebSocket, url, init), {
    readsUpgradeHeaders: true,
  });
}

/**
 * The platform's WebSocket cannot set headers or show the upgrade's: the key goes in the first frame (the
 * reference's `{"type":"auth"}` frame, never in the URL), and a refused upgrade is a plain 1006 close.
 */
function openPlatformSocket(
  Platform: typeof WebSocket,
  url: string,
  { apiKey, handlers }: { apiKey: string | undefined; handlers: EventSocketHandlers },
): EventSocket {
  const ws = new Platform(url);
  ws.binaryType = 'arraybuffer';
  ws.onopen = () => {
    if (apiKey !== undefined) ws.send(JSON.stringify({ type: 'auth', session_api_key: apiKey }));
    handlers.onOpen(undefined);
  };
  ws.onmessage = (message: MessageEvent) => {
    const data: unknown = message.data;
    if (typeof data === 'string') handlers.onMessage(data);
    else if (data instanceof ArrayBuffer) handlers.onMessage(new TextDecoder().decode(data));
  };
  ws.onerror = () => handlers.onError('the WebSocket failed', undefined);
  ws.onclose = (close: CloseEvent) => handlers.onClose(close.code, close.reason);
  return {
    close: (code, reason) => ws.close(code, reason),
    terminate: () => ws.close(),
  };
}

/** The parts of the `ws` package's client used here. */
type NodeWebSocketClass = new (
  url: string,
  options: { headers: Record<string, string> },
) => {
  on(event: 'upgrade', listener: (response: { headers: Record<string, unknown> }) => void): void;
  on(
    event: 'unexpected-response',
    listener: (request: unknown, response: { statusCode?: number; resume(): void }) => void,
  ): void;
  on(event: 'error', listener: (error: Error) => void): void;
  /** `binaryType` is left `nodebuffer`: a message, fragmented or not, comes as one Buffer. */
  on(event: 'message', listener: (data: Uint8Array) => void): void;
  on(event: 'close', listener: (code: number, reason: Uint8Array) => void): void;
  close(code: number, reason: string): void;
  terminate(): void;
};

/** `ws` sends the key as the `X-Session-API-Key` header and shows the upgrade's status and headers. */
function openNodeSocket(
  NodeWebSocket: NodeWebSocketClass,
  url: string,
  { apiKey, handlers }: { apiKey: string | undefined; handlers: EventSocketHandlers },
): EventSocket {
  const ws = new NodeWebSocket(url, { headers: apiKey === undefined ? {} : { 'x-session-api-key': apiKey } });
  ws.on('upgrade', (response) => handlers.onOpen(response.headers[RESUME_HEADER] !== undefined));
  ws.on('unexpected-response', (_request, response) => {
    response.resume();
    handlers.onRefused(response.statusCode ?? 0);
    ws.terminate();
  });
  ws.on('error', (error) => handlers.onError(error.message, error));
  ws.on('message', (data) => handlers.onMessage(new TextDecoder().decode(data)));
  ws.on('close', (code, reason) => handlers.onClose(code, new TextDecoder().decode(reason)));
  return {
    close: (code, reason) => ws.close(code, reason),
    terminate: () => ws.terminate(),
  };
}
