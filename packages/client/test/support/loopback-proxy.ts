import { createServer, type Server, Socket } from 'node:net';
import { RESUME_HEADER } from '../../src/internal/resume-header.js';

/**
 * A TCP proxy on 127.0.0.1 in front of a real server, so a test can cut, stall or silence the connections the
 * client opens: the network faults a client must survive, made on demand. Event sockets (`GET /sockets/…`) and
 * REST requests are told apart by their first bytes.
 */
export interface LoopbackProxy {
  readonly url: string;
  /** Event sockets opened through the proxy so far (refused and stalled ones included). */
  readonly socketConnections: number;
  /** REST connections refused so far. */
  readonly restRefused: number;
  /** The request lines (`GET /api/…`) of the REST requests forwarded so far. */
  readonly requests: readonly string[];
  /** The request lines (`GET /sockets/events/…?…`) of the event sockets let through so far. */
  readonly socketRequests: readonly string[];
  /** The text of every REST chunk forwarded so far (request heads and bodies). */
  readonly restTraffic: readonly string[];
  /**
   * New event sockets: `pass` forwards them, `refuse` closes them at once, `stall` accepts them and never answers,
   * `{ status }` answers the upgrade with that HTTP status (a server or a gateway refusing it).
   */
  setSockets(mode: Mode): void;
  /**
   * REST: `pass`, `refuse` (new connections are closed at once) or `{ status }` (every request from now on, on open
   * connections too, is answered with that HTTP status, as a gateway refusing it would).
   */
  setRest(mode: 'pass' | 'refuse' | { status: number }): void;
  /** Cuts every open event socket (as a network drop would). */
  dropSockets(): void;
  /** Cuts every open REST connection (kept-alive ones included). */
  dropRest(): void;
  /** While on, what the server sends on open event sockets is swallowed (frames sent then never arrive). */
  muteSockets(muted: boolean): void;
  /** While on, what the server sends on open event sockets waits in the proxy; turned off, it is sent (a drop loses it). */
  holdSocketFrames(held: boolean): void;
  /** While on, REST requests wait in the proxy (answers slower than the event socket); turned off, they go on. */
  holdRest(held: boolean): void;
  /** Runs `callback` once, when the next REST request whose line (`GET /api/…`) matches arrives, and sends it after. */
  whenRequest(pattern: RegExp, callback: () => Promise<void>): void;
  /** Calls `callback` once, when the next event socket is let through (before its upgrade reaches the server). */
  whenSocketOpens(callback: () => void): void;
  /** Sends a text frame to every open event socket as if the server had (a malformed one, say); between frames only. */
  injectFrame(text: string): void;
  /**
   * While on, the server looks like the reference's: event socket requests lose `from_index` (which the reference
   * ignores) and upgrade responses the resume header.
   */
  actAsReference(on: boolean): void;
  close(): Promise<void>;
}

type Mode = 'pass' | 'refuse' | 'stall' | { status: number };

export async function startLoopbackProxy(target: string): Promise<LoopbackProxy> {
  const { hostname, port } = new URL(target);
  let socketMode: Mode = 'pass';
  let restMode: 'pass' | 'refuse' | { status: number } = 'pass';
  let muted = false;
  let framesHeld = false;
  let restHeld = false;
  let asReference = false;
  const heldFrames = new Map<Socket, Buffer[]>();
  const heldRequests: Array<() => void> = [];
  const requestHooks: Array<{ pattern: RegExp; callback: () => Promise<void> }> = [];
  const onSocketOpen: Array<() => void> = [];
  let socketConnections = 0;
  let restRefused = 0;
  const requests: string[] = [];
  const restTraffic: string[] = [];
  const socketRequests: string[] = [];
  const eventSockets = new Set<Socket>();
  const restSockets = new Set<Socket>();
  const all = new Set<Socket>();
  const track = (set: Set<Socket>, socket: Socket): void => {
    set.add(socket);
    socket.on('close', () => set.delete(socket));
  };
  const forward = (client: Socket, first: Buffer, isEventSocket: boolean): void => {
    const upstream = new Socket();
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    let upgraded = false;
    upstream.on('data', (received: Buffer) => {
      let chunk = received;
      if (isEventSocket && !upgraded) {
        upgraded = true;
        const header = new RegExp(`^${RESUME_HEADER}:.*\\r\\n`, 'im');
        if (asReference) chunk = Buffer.from(chunk.toString('latin1').replace(header, ''), 'latin1');
      }
      if (isEventSocket && muted) return;
      const held = heldFrames.get(client);
      if (isEventSocket && (framesHeld || held !== undefined)) heldFrames.set(client, [...(held ?? []), chunk]);
      else client.write(chunk);
    });
    client.on('close', () => heldFrames.delete(client));
    // Each REST chunk waits for the one before it (held, or behind a request hook), so the bytes stay in order.
    let sent: Promise<void> = Promise.resolve();
    const toUpstream = (chunk: Buffer): void => {
      const line = requestLine(chunk);
      const hook = line === undefined ? undefined : requestHooks.find((entry) => entry.pattern.test(line));
      if (hook !== undefined) requestHooks.splice(requestHooks.indexOf(hook), 1);
      sent = sent.then(async () => {
        await hook?.callback();
        if (restHeld) await new Promise<void>((resolve) => heldRequests.push(resolve));
        if (typeof restMode === 'object') client.end(refusal(restMode.status));
        else upstream.write(chunk);
      });
    };
    const note = (chunk: Buffer): void => {
      const line = requestLine(chunk);
      if (line !== undefined) (isEventSocket ? socketRequests : requests).push(line);
      if (!isEventSocket) restTraffic.push(chunk.toString('utf8'));
    };
    // The server refuses a Host it does not serve (DNS rebinding): requests name the server, not the proxy.
    const rewrite = (chunk: Buffer): Buffer =>
      Buffer.from(chunk.toString('latin1').replace(/^host: .*$/im, `Host: ${hostname}:${port}`), 'latin1');
    upstream.connect(Number(port), hostname, () => {
      note(first);
      if (isEventSocket) upstream.write(asReference ? withoutFromIndex(rewrite(first)) : rewrite(first));
      else toUpstream(rewrite(first));
      client.on('data', (chunk: Buffer) => {
        // After the upgrade, an event socket carries masked frames, not headers.
        if (isEventSocket) upstream.write(chunk);
        else {
          note(chunk);
          toUpstream(rewrite(chunk));
        }
      });
      client.resume();
    });
  };
  const server: Server = createServer((client) => {
    track(all, client);
    client.on('error', () => undefined);
    client.once('data', (first: Buffer) => {
      // Held until the upstream connection is open, so no later chunk is lost.
      client.pause();
      const isEventSocket = first.toString('latin1').startsWith('GET /sockets/');
      if (isEventSocket) socketConnections += 1;
      const mode = isEventSocket ? socketMode : restMode;
      if (mode === 'refuse') {
        if (!isEventSocket) restRefused += 1;
        client.destroy();
        return;
      }
      if (typeof mode === 'object') {
        client.end(refusal(mode.status));
        return;
      }
      track(isEventSocket ? eventSockets : restSockets, client);
      if (isEventSocket && mode === 'pass') for (const callback of onSocketOpen.splice(0)) callback();
      if (mode === 'pass') forward(client, first, isEventSocket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    get socketConnections() {
      return socketConnections;
    },
    get restRefused() {
      return restRefused;
    },
    get requests() {
      return requests;
    },
    get socketRequests() {
      return socketRequests;
    },
    get restTraffic() {
      return restTraffic;
    },
    setSockets(mode) {
      socketMode = mode;
    },
    setRest(mode) {
      restMode = mode;
    },
    dropSockets() {
      for (const socket of eventSockets) socket.destroy();
    },
    dropRest() {
      for (const socket of restSockets) socket.destroy();
    },
    muteSockets(next) {
      muted = next;
    },
    holdSocketFrames(held) {
      framesHeld = held;
      if (held) return;
      for (const [client, chunks] of heldFrames) for (const chunk of chunks) client.write(chunk);
      heldFrames.clear();
    },
    holdRest(held) {
      restHeld = held;
      if (!held) for (const send of heldRequests.splice(0)) send();
    },
    whenRequest(pattern, callback) {
      requestHooks.push({ pattern, callback });
    },
    whenSocketOpens(callback) {
      onSocketOpen.push(callback);
    },
    injectFrame(text) {
      const payload = Buffer.from(text, 'utf8');
      // An unmasked final text frame, as servers send them; the tests here keep payloads under 64 KiB.
      const head =
        payload.length < 126
          ? Buffer.from([0x81, payload.length])
          : Buffer.from([0x81, 126, payload.length >> 8, payload.length & 0xff]);
      for (const client of eventSockets) client.write(Buffer.concat([head, payload]));
    },
    actAsReference(on) {
      asReference = on;
    },
    async close() {
      for (const socket of all) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An HTTP answer with `status` and no body that closes the connection. */
function refusal(status: number): string {
  return `HTTP/1.1 ${status} Refused\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`;
}

/** `GET /api/…` when `chunk` starts a request. */
function requestLine(chunk: Buffer): string | undefined {
  const line = /^(GET|POST|PUT|PATCH|DELETE) (\S+)/.exec(chunk.toString('latin1'));
  return line === null ? undefined : `${line[1]} ${line[2]}`;
}

/** An upgrade request without its `from_index` query parameter. */
function withoutFromIndex(chunk: Buffer): Buffer {
  const text = chunk
    .toString('latin1')
    .replace(/([?&])from_index=\d+(&?)/, (_match, separator: string, next: string) => (next === '' ? '' : separator));
  return Buffer.from(text, 'latin1');
}
