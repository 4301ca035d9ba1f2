import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { WebSocket } from 'ws';

/** A test WebSocket client that records every frame (parsed JSON) and how the socket ended. */
export interface RecordingSocket {
  readonly ws: WebSocket;
  readonly frames: Record<string, unknown>[];
  /** The raw TCP socket, to pause reading (a stalled client). */
  readonly tcp: () => Socket | undefined;
  /** Resolves with the close code and reason. */
  readonly closed: Promise<{ code: number; reason: string }>;
  /** Resolves when the handshake completes; rejects with the HTTP status when the upgrade is refused. */
  readonly opened: Promise<void>;
  send(value: unknown): void;
  /** Waits until `predicate` holds for the frames received so far. */
  waitFor(predicate: (frames: Record<string, unknown>[]) => boolean, timeoutMs?: number): Promise<void>;
}

export function connectRecording(url: string, options: { headers?: Record<string, string> } = {}): RecordingSocket {
  const ws = new WebSocket(url, { headers: options.headers });
  const frames: Record<string, unknown>[] = [];
  let tcp: Socket | undefined;
  const waiters = new Set<() => void>();
  ws.on('upgrade', (response: IncomingMessage) => {
    tcp = response.socket as Socket;
  });
  ws.on('message', (data) => {
    frames.push(JSON.parse(data.toString()) as Record<string, unknown>);
    for (const wake of waiters) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
      for (const wake of waiters) wake();
    });
  });
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_request, response) => {
      reject(new Error(`upgrade refused with HTTP ${response.statusCode}`));
      ws.terminate();
    });
    ws.once('error', reject);
  });
  opened.catch(() => undefined);
  return {
    ws,
    frames,
    tcp: () => tcp,
    closed,
    opened,
    send: (value) => ws.send(typeof value === 'string' ? value : JSON.stringify(value)),
    waitFor(predicate, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (predicate(frames)) {
            cleanup();
            resolve();
          } else if (ws.readyState === WebSocket.CLOSED) {
            cleanup();
            reject(new Error(`socket closed before the expected frames arrived (${frames.length} received)`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for frames (${frames.length} received)`));
        }, timeoutMs);
        const cleanup = (): void => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
  };
}

/** Frames that are persisted events (not full_state snapshots, deltas or server errors). */
export function persistedFrames(frames: Record<string, unknown>[]): Record<string, unknown>[] {
  return frames.filter(
    (frame) =>
      frame.kind !== 'StreamingDeltaEvent' &&
      frame.kind !== 'ServerErrorEvent' &&
      !(frame.kind === 'ConversationStateUpdateEvent' && frame.key === 'full_state'),
  );
}
