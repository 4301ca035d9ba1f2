import { createServer, request } from 'node:http';
import { connect, type Socket } from 'node:net';

/**
 * An HTTP proxy on 127.0.0.1 in front of a real server that makes chosen events unreadable in the pages of
 * `GET …/events/search` (only their kind and id are left), as a newer server's events of another shape would be.
 * Everything else, the event socket included, passes through untouched.
 */
export interface PageRewritingProxy {
  readonly url: string;
  /** From now on, search pages show the events with these ids without their fields. */
  makeUnreadable(ids: readonly string[]): void;
  close(): Promise<void>;
}

export async function startPageRewritingProxy(target: string): Promise<PageRewritingProxy> {
  const { hostname, port } = new URL(target);
  const unreadable = new Set<string>();
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const server = createServer((incoming, outgoing) => {
    const upstream = request(
      {
        host: hostname,
        port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: `${hostname}:${port}` },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          let body = Buffer.concat(chunks);
          if (/\/events\/search\b/.test(incoming.url ?? '') && response.statusCode === 200) {
            body = Buffer.from(rewritePage(body.toString('utf8'), unreadable), 'utf8');
          }
          const { 'transfer-encoding': _chunked, 'content-length': _length, ...headers } = response.headers;
          outgoing.writeHead(response.statusCode ?? 502, { ...headers, 'content-length': body.length });
          outgoing.end(body);
        });
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  server.on('connection', track);
  // The event socket: the upgrade request as it came, then bytes both ways.
  server.on('upgrade', (incoming, client: Socket, head: Buffer) => {
    const upstream = connect(Number(port), hostname, () => {
      const lines = [`${incoming.method} ${incoming.url} HTTP/1.1`];
      for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
        const name = incoming.rawHeaders[i] as string;
        lines.push(`${name}: ${name.toLowerCase() === 'host' ? `${hostname}:${port}` : incoming.rawHeaders[i + 1]}`);
      }
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    track(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    makeUnreadable(ids) {
      for (const id of ids) unreadable.add(id);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function rewritePage(text: string, unreadable: ReadonlySet<string>): string {
  const page = JSON.parse(text) as { items: Array<Record<string, unknown>> };
  const items = page.items.map((item) =>
    // Only the kind and the id: what a newer server's shape of the kind would leave this client to read.
    typeof item.id === 'string' && unreadable.has(item.id) ? { kind: item.kind, id: item.id } : item,
  );
  return JSON.stringify({ ...page, items });
}
