import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One HTTP/1.1 request over a raw TCP socket, with the request target sent exactly as given (fetch and
 * http.request normalise paths; attacks use absolute-form targets, `%`-encodings, `/./`, backslashes...).
 * Resolves with status 0 when the server closed the connection without an answer.
 */
export function rawRequest(
  port: number,
  request: { method?: string; target: string; headers?: Record<string, string>; body?: string },
): Promise<RawResponse> {
  const body = request.body ?? '';
  const headers: Record<string, string> = {
    Host: `127.0.0.1:${port}`,
    Connection: 'close',
    ...(body === '' ? {} : { 'Content-Type': 'application/json' }),
    'Content-Length': String(Buffer.byteLength(body)),
    ...request.headers,
  };
  const head = [`${request.method ?? 'GET'} ${request.target} HTTP/1.1`]
    .concat(Object.entries(headers).map(([name, value]) => `${name}: ${value}`))
    .join('\r\n');
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET') resolve(parse(Buffer.concat(chunks).toString('utf8')));
      else reject(error);
    });
    socket.on('end', () => resolve(parse(Buffer.concat(chunks).toString('utf8'))));
    socket.write(`${head}\r\n\r\n${body}`);
  });
}

function parse(text: string): RawResponse {
  const split = text.indexOf('\r\n\r\n');
  if (split < 0) return { status: 0, headers: {}, body: text };
  const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = text.slice(split + 4);
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body };
}

function dechunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    if (lineEnd < 0) return out;
    const size = Number.parseInt(rest.slice(0, lineEnd), 16);
    if (!(size > 0)) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}
