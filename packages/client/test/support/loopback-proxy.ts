import { createServer, type Server, Socket } from 'node:net';

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
  /** New event sockets: `pass` forwards them, `refuse` closes them at once, `stall` accepts them and never answers. */
  setSockets(mode: Mode): void;
  /** New REST connections: `pass` or `refuse`. */
  setRest(mode: 'pass' | 'refuse'): void;
  /** Cuts every open event socket (as a network drop would). */
  dropSockets(): void;
  /** Cuts every open REST connection (kept-alive ones included). */
  dropRest(): void;
  /** While on, what the server sends on open event sockets is swallowed (frames sent then never arrive). */
  muteSockets(muted: boolean): void;
  close(): Promise<void>;
}

type Mode = 'pass' | 'refuse' | 'stall';

export async function startLoopbackProxy(target: string): Promise<LoopbackProxy> {
  const { hostname, port } = new URL(target);
  let socketMode: Mode = 'pass';
  let restMode: 'pass' | 'refuse' = 'pass';
  let muted = false;
  let socketConnections = 0;
  let restRefused = 0;
  const requests: string[] = [];
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
    upstream.on('data', (chunk: Buffer) => {
      if (!(isEventSocket && muted)) client.write(chunk);
    });
    const note = (chunk: Buffer): void => {
      const line = /^(GET|POST|PUT|PATCH|DELETE) (\S+)/.exec(chunk.toString('latin1'));
      if (line !== null && !isEventSocket) requests.push(`${line[1]} ${line[2]}`);
    };
    // The server refuses a Host it does not serve (DNS rebinding): requests name the server, not the proxy.
    const rewrite = (chunk: Buffer): Buffer =>
      Buffer.from(chunk.toString('latin1').replace(/^host: .*$/im, `Host: ${hostname}:${port}`), 'latin1');
    upstream.connect(Number(port), hostname, () => {
      note(first);
      upstream.write(rewrite(first));
      client.on('data', (chunk: Buffer) => {
        // After the upgrade, an event socket carries masked frames, not headers.
        if (isEventSocket) upstream.write(chunk);
        else {
          note(chunk);
          upstream.write(rewrite(chunk));
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
      track(isEventSocket ? eventSockets : restSockets, client);
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
    async close() {
      for (const socket of all) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
