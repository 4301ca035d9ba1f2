import { WebSocket } from 'ws';

/**
 * Sends a close frame and drops the connection if the peer has not completed the closing handshake
 * after `timeoutMs` (a stalled peer never reads the close frame). Reasons are cut to the protocol's
 * 123 bytes.
 */
export function closeSocket(ws: WebSocket, code: number, reason: string, timeoutMs: number): void {
  if (ws.readyState === WebSocket.CLOSED) return;
  if (ws.readyState !== WebSocket.CLOSING) ws.close(code, truncateUtf8(reason, 123));
  const timer = setTimeout(() => ws.terminate(), timeoutMs);
  timer.unref();
  ws.once('close', () => clearTimeout(timer));
}

function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  let cut = text.slice(0, maxBytes);
  while (Buffer.byteLength(cut) > maxBytes) cut = cut.slice(0, -1);
  return cut;
}
