// Sec-Fetch-Site (without Origin) is a browser's word on where a request comes from. Node joins a repeated field's
// lines with ", " in `headers`, so a second line (or one comma-joined value) must not hide a cross-site one: any value
// that is not `same-origin` or `none` is refused, on every face and on a WebSocket upgrade.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostOriginCheck } from '../../src/security/index.js';
import { removeDir, startTestServer, type TestServer } from '../helpers.js';
import { rawLines } from '../support/raw-lines.js';

const KEY = 'repeated-header-key';
let server: TestServer;
let port: number;

beforeAll(async () => {
  server = await startTestServer({ config: { apiKeys: [KEY] } });
  port = Number(new URL(server.url).port);
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

const targets = [
  'GET /health',
  'GET /api/conversations/count',
  'POST /api/ag-ui',
  'POST /api/a2a',
  'POST /api/mcp',
  'GET /v1/models',
  'GET /no-such-route',
];

async function statusOf(target: string, lines: readonly string[]): Promise<number> {
  const response = await rawLines(port, [
    `${target} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    `X-Session-API-Key: ${KEY}`,
    'Content-Length: 0',
    ...lines,
  ]);
  return response.status;
}

describe('a repeated or comma-joined Sec-Fetch-Site', () => {
  const spellings: Array<readonly string[]> = [
    ['Sec-Fetch-Site: same-origin', 'Sec-Fetch-Site: cross-site'],
    ['Sec-Fetch-Site: cross-site', 'Sec-Fetch-Site: same-origin'],
    ['Sec-Fetch-Site: none', 'sec-fetch-site: same-site'],
    ['Sec-Fetch-Site: same-origin, cross-site'],
    ['Sec-Fetch-Site: none,cross-site'],
    ['Sec-Fetch-Site: Cross-Site'],
  ];

  it('is refused (403 cross_site) when any value is not same-origin or none, on every face', async () => {
    const passed: string[] = [];
    for (const lines of spellings) {
      for (const target of targets) {
        const status = await statusOf(target, lines);
        if (status !== 403) passed.push(`${target} [${lines.join(' | ')}] → ${status}`);
      }
    }
    expect(passed).toEqual([]);
  });

  it('is refused on a WebSocket upgrade', async () => {
    const upgrade = await rawLines(port, [
      'GET /sockets/events/x HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      'Sec-Fetch-Site: same-origin',
      'Sec-Fetch-Site: cross-site',
      'Upgrade: websocket',
      'Connection: Upgrade',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
      'Sec-WebSocket-Version: 13',
    ]);
    expect(upgrade.status).toBe(403);
  });

  it('passes when every value is same-origin or none', async () => {
    expect(await statusOf('GET /health', ['Sec-Fetch-Site: same-origin', 'Sec-Fetch-Site: none'])).toBe(200);
    expect(await statusOf('GET /health', ['Sec-Fetch-Site: same-origin'])).toBe(200);
  });

  it('is judged from every line by the check itself, not only from the joined header', () => {
    const check = createHostOriginCheck({
      bindHost: '127.0.0.1',
      allowedHosts: [],
      allowedOrigins: [],
      port: () => 1234,
    });
    const host = '127.0.0.1:1234';
    const raw = ['Host', host, 'Sec-Fetch-Site', 'same-origin', 'Sec-Fetch-Site', 'cross-site'];
    expect(check({ host, 'sec-fetch-site': 'same-origin' }, '/', raw)?.problem).toBe('cross_site');
    expect(check({ host, 'sec-fetch-site': 'same-origin, same-site' }, '/')?.problem).toBe('cross_site');
  });
});
