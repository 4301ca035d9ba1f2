import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One OTLP/HTTP export as received: the path (`/v1/traces`, `/v1/metrics`), the JSON body and the headers. */
export interface ReceivedExport {
  path: string;
  body: string;
  headers: Record<string, unknown>;
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly endpoint: string;
  /** Every export so far, in arrival order (clear it with `received.length = 0`). */
  readonly received: ReceivedExport[];
  close(): Promise<void>;
}

/** A local OTLP/HTTP collector on 127.0.0.1 that records every export and answers 200. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: ReceivedExport[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      received.push({ path: request.url ?? '', body, headers: request.headers });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
