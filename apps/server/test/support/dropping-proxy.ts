import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** A TCP proxy on 127.0.0.1 in front of `target` whose connections a test can drop, and refuse while it is down. */
export interface DroppingProxy {
  readonly url: string;
  /** Drops every open connection and refuses new ones until `up()`. */
  down(): void;
  up(): void;
  close(): Promise<void>;
}

export async function startDroppingProxy(target: string): Promise<DroppingProxy> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  let refusing = false;
  const server: Server = createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: hostname, port: Number(port) });
    open.add(client);
    open.add(upstream);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    down() {
      refusing = true;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    up() {
      refusing = false;
    },
    close() {
      refusing = true;
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
