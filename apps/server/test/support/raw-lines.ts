import { connect } from 'node:net';

/**
 * Sends `head` (request line and header lines, joined with CRLF, no blank line) verbatim over a raw TCP socket,
 * then `Connection: close`, and resolves with the status and body of the answer (status 0 when the server closed
 * without one). For what a header record cannot spell: a header repeated, two Host lines.
 */
export function rawLines(port: number, head: readonly string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const done = (): void => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: split < 0 ? '' : text.slice(split + 4) });
    };
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', done);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET') done();
      else reject(error);
    });
    socket.write(`${[...head, 'Connection: close'].join('\r\n')}\r\n\r\n`);
  });
}
