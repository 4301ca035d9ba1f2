import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackServer {
  readonly port: number;
  /** Stops listening and drops every open connection. */
  close(): Promise<void>;
}

/**
 * Starts an HTTP server on 127.0.0.1 at a free port (the test servers never listen beyond loopback). A request
 * whose handler fails gets `fail`'s answer, or has its connection dropped when the answer has begun.
 */
export async function listenOnLoopback(
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
  fail: (response: ServerResponse, error: unknown) => void,
): Promise<LoopbackServer> {
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) fail(response, error);
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
