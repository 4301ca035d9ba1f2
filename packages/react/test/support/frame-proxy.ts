import { createServer, type Server, Socket } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a real server, so a test can replace what the server sends on an event
 * socket: the frames a newer server would send that this client cannot read. REST passes through untouched.
 */
export interface FrameProxy {
  readonly url: string;
  /** The request lines (`GET /sockets/events/…?…`) of the event sockets opened so far. */
  readonly socketRequests: readonly string[];
  /** What the server sent on event sockets that waits in the proxy (see `holdFrames`), as text. */
  readonly heldText: string;
  /** While on, what the server sends on open event sockets waits in the proxy; turned off, it is sent. */
  holdFrames(held: boolean): void;
  /** Forgets what waits in the proxy: the client never gets it. */
  discardHeldFrames(): void;
  /** Cuts every open event socket (as a network drop would). */
  dropSockets(): void;
  /** Sends a text frame to every open event socket as if the server had; between frames only. */
  injectFrame(text: string): void;
  close(): Promise<void>;
}

export async function startFrameProxy(target: string): Promise<FrameProxy> {
  const { hostname, port } = new URL(target);
  const socketRequests: string[] = [];
  const eventSockets = new Set<Socket>();
  const all = new Set<Socket>();
  let held = false;
  let waiting: Array<{ client: Socket; chunk: Buffer }> = [];

  const forward = (client: Socket, first: Buffer, isEventSocket: boolean): void => {
    const upstream = new Socket();
    all.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    let upgraded = false;
    upstream.on('data', (chunk: Buffer) => {
      // The upgrade response always goes through: only frames are held.
      if (isEventSocket && upgraded && held) waiting.push({ client, chunk });
      else client.write(chunk);
      upgraded = true;
    });
    // The server refuses a Host it does not serve (DNS rebinding): requests name the server, not the proxy.
    const rewrite = (chunk: Buffer): Buffer =>
      Buffer.from(chunk.toString('latin1').replace(/^host: .*$/im, `Host: ${hostname}:${port}`), 'latin1');
    upstream.connect(Number(port), hostname, () => {
      upstream.write(rewrite(first));
      // After the upgrade, an event socket carries masked frames, not headers.
      client.on('data', (chunk: Buffer) => upstream.write(isEventSocket ? chunk : rewrite(chunk)));
      client.resume();
    });
  };

  const server: Server = createServer((client) => {
    all.add(client);
    client.on('close', () => all.delete(client));
    client.on('error', () => undefined);
    client.once('data', (first: Buffer) => {
      // Held until the upstream connection is open, so no later chunk is lost.
      client.pause();
      const line = /^GET (\/sockets\/\S+)/.exec(first.toString('latin1'));
      if (line !== null) {
        socketRequests.push(`GET ${line[1]}`);
        eventSockets.add(client);
        client.on('close', () => eventSockets.delete(client));
      }
      forward(client, first, line !== null);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    socketRequests,
    get heldText() {
      return Buffer.concat(waiting.map((entry) => entry.chunk)).toString('utf8');
    },
    holdFrames(next) {
      held = next;
      if (next) return;
      for (const { client, chunk } of waiting) client.write(chunk);
      waiting = [];
    },
    discardHeldFrames() {
      waiting = [];
    },
    dropSockets() {
      for (const socket of eventSockets) socket.destroy();
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
    async close() {
      for (const socket of all) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
