// fetchWithQuery adds a base URL's query to every request an SDK makes (the Gemini SDK appends its paths after the
// base URL, so a query left in it would end up inside the path). A parameter the request names itself is the SDK's
// (`alt=sse` on a streamed call) and must win over the base URL's: overwritten, a stream would come back as JSON.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchWithQuery } from '../src/providers/internal/base-url-credentials.js';

let server: Server;
let base: string;
/** The request targets the server received, in order. */
const targets: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    targets.push(request.url ?? '');
    response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The query the server received for one call of `fetchWithQuery(query)`. */
async function received(query: Record<string, string>, input: string | URL | Request): Promise<URLSearchParams> {
  const before = targets.length;
  const response = await fetchWithQuery(query)(input);
  expect(await response.text()).toBe('ok');
  expect(targets.length).toBe(before + 1);
  return new URL(targets[before] ?? '', base).searchParams;
}

describe('fetchWithQuery', () => {
  it('adds every parameter of the base URL to a request that names none of them', async () => {
    const params = await received({ key: 'k1', region: 'eu' }, `${base}/v1beta/models/m:generateContent`);
    expect([...params]).toEqual([
      ['key', 'k1'],
      ['region', 'eu'],
    ]);
  });

  it('leaves a parameter the request names itself as the request gave it, and adds the others', async () => {
    for (const input of [
      `${base}/v1beta/models/m:streamGenerateContent?alt=sse`,
      new URL(`${base}/v1beta/models/m:streamGenerateContent?alt=sse`),
      new Request(`${base}/v1beta/models/m:streamGenerateContent?alt=sse`),
    ]) {
      const params = await received({ alt: 'json', key: 'k1' }, input);
      expect({ input: String(input), alt: params.getAll('alt'), key: params.getAll('key') }).toEqual({
        input: String(input),
        alt: ['sse'],
        key: ['k1'],
      });
    }
  });

  it('keeps a Request input’s method, headers and body', async () => {
    const seen: { method?: string; header?: string; body: string }[] = [];
    const echo = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      request.on('end', () => {
        seen.push({ method: request.method, header: request.headers['x-goog-api-key'] as string, body });
        response.end(request.url);
      });
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/v1/x?own=1`;
      const response = await fetchWithQuery({ key: 'k1' })(
        new Request(url, { method: 'POST', headers: { 'x-goog-api-key': 'g' }, body: '{"a":1}' }),
      );
      expect(await response.text()).toBe('/v1/x?own=1&key=k1');
      expect(seen).toEqual([{ method: 'POST', header: 'g', body: '{"a":1}' }]);
    } finally {
      await new Promise<void>((resolve) => echo.close(() => resolve()));
    }
  });
});
