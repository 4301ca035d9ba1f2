import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { type HostPattern, isHostAllowed, normalizeHost } from '../host-allowlist.js';
import { type ResolveUpstreamOptions, resolveUpstream } from './resolve-upstream.js';

/** A connection the allowlist refused. */
export interface DeniedConnection {
  host: string;
  port: number;
  /** `CONNECT` for a tunnel (HTTPS), else the HTTP method of a plain request. */
  method: string;
}

/** The resolver and classifier of the proxy's upstream addresses, replaced by tests only (see `resolveUpstream`). */
export type UpstreamLookup = Pick<ResolveUpstreamOptions, 'resolve' | 'classify'>;

export interface AllowlistProxy {
  close(): Promise<void>;
}

/**
 * Connections one proxy holds at once (each tunnel is two of the server's descriptors): past it a new one is
 * closed at once. A command could otherwise open them by the hundred thousand (its node raises its own
 * descriptor limit) and exhaust the server's. Far above what a package manager opens in parallel.
 */
export const MAX_PROXY_CONNECTIONS = 256;

const HOP_BY_HOP = ['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade'];

/**
 * A CONNECT's `host:port`, or undefined where it is not one. The port must be one a socket can connect to (1 to
 * 65535): `net.connect` throws for any other, and a throw there would end the server, not just the tunnel.
 */
function splitAuthority(authority: string): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(authority);
  if (match === null) return undefined;
  const port = Number.parseInt(match[2] ?? '', 10);
  if (port < 1 || port > 65535) return undefined;
  return { host: (match[1] ?? '').replace(/^\[|\]$/g, ''), port };
}

function deny(response: ServerResponse, denied: DeniedConnection, why?: string): void {
  response.writeHead(403, { 'content-type': 'text/plain', connection: 'close' });
  response.end(
    `The sandbox's network allowlist does not admit ${denied.host}:${denied.port}${why ? `: ${why}` : ''}\n`,
  );
}

/**
 * An HTTP proxy (CONNECT tunnels and plain absolute-URL requests) on a unix socket, admitting only the hosts
 * of an allowlist. Only node:http and node:net: the request line's host is what is checked, and the proxy
 * itself resolves and connects, so nothing inside the sandbox ever holds a socket to the outside.
 */
export async function startAllowlistProxy(options: {
  socketPath: string;
  hosts: readonly HostPattern[];
  /** Admit names that resolve into a private network (see `resolveUpstream`). */
  allowPrivateNetworks?: boolean;
  /** How an admitted name is resolved and its addresses classed (the system's resolver and `classifyAddress`). */
  lookup?: UpstreamLookup;
  onDenied: (denied: DeniedConnection) => void;
}): Promise<AllowlistProxy> {
  const sockets = new Set<Socket>();
  const upstreamOptions: ResolveUpstreamOptions = {
    ...options.lookup,
    ...(options.allowPrivateNetworks === undefined ? {} : { allowPrivateNetworks: options.allowPrivateNetworks }),
  };
  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    let target: URL;
    try {
      target = new URL(incoming.url ?? '');
    } catch {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('A proxy request needs an absolute URL\n');
      return;
    }
    if (target.protocol !== 'http:') {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('Only http: is proxied; use CONNECT for TLS\n');
      return;
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const port = target.port === '' ? 80 : Number.parseInt(target.port, 10);
    if (!isHostAllowed(options.hosts, host, port)) {
      const denied = { host, port, method: incoming.method ?? 'GET' };
      options.onDenied(denied);
      deny(response, denied);
      return;
    }
    const headers = { ...incoming.headers };
    for (const name of HOP_BY_HOP) delete headers[name];
    const unreachable = (error: Error): void => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`The proxy could not reach ${host}:${port}: ${error.message}\n`);
    };
    // The name the allowlist admitted (`LOCALHOST.` is `localhost`), not another spelling of it.
    resolveUpstream(normalizeHost(host), upstreamOptions)
      .then((resolved) => {
        if ('refused' in resolved) {
          const denied = { host, port, method: incoming.method ?? 'GET' };
          options.onDenied(denied);
          deny(response, denied, resolved.refused);
          return;
        }
        const upstream = request(
          {
            host: resolved.address,
            port,
            method: incoming.method,
            path: `${target.pathname}${target.search}`,
            headers,
          },
          (reply) => {
            // Hop-by-hop both ways: the upstream's `connection: keep-alive` is not the client's connection's.
            const replyHeaders = { ...reply.headers };
            for (const name of HOP_BY_HOP) delete replyHeaders[name];
            response.writeHead(reply.statusCode ?? 502, replyHeaders);
            reply.pipe(response);
          },
        );
        upstream.on('error', unreachable);
        incoming.pipe(upstream);
      })
      .catch(unreachable);
  });
  server.maxConnections = MAX_PROXY_CONNECTIONS;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (incoming: IncomingMessage, client: Socket, head: Buffer) => {
    client.on('error', () => undefined);
    const authority = splitAuthority(incoming.url ?? '');
    if (authority === undefined) {
      client.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
      return;
    }
    if (!isHostAllowed(options.hosts, authority.host, authority.port)) {
      options.onDenied({ ...authority, method: 'CONNECT' });
      client.end(
        `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\nThe sandbox's network allowlist does not admit ${authority.host}:${authority.port}\n`,
      );
      return;
    }
    const refuse = (why: string): void => {
      options.onDenied({ ...authority, method: 'CONNECT' });
      client.end(
        `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\nThe sandbox's network allowlist does not admit ${authority.host}:${authority.port}: ${why}\n`,
      );
    };
    const badGateway = (): void => {
      if (client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\n');
      client.destroy();
    };
    resolveUpstream(normalizeHost(authority.host), upstreamOptions)
      .then((resolved) => {
        if ('refused' in resolved) {
          refuse(resolved.refused);
          return;
        }
        if (client.destroyed) return;
        const upstream = connect(authority.port, resolved.address, () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (head.length > 0) upstream.write(head);
          upstream.pipe(client);
          client.pipe(upstream);
        });
        sockets.add(upstream);
        upstream.on('close', () => sockets.delete(upstream));
        upstream.on('error', badGateway);
        client.on('close', () => upstream.destroy());
      })
      .catch(badGateway);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
