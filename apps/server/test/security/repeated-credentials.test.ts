// The credentials headers are held to one line each: Node keeps the first Authorization line and drops the rest (a
// proxy in front may read another), and joins repeated X-Session-API-Key lines. A request sending either twice is
// refused, whichever line holds the key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer } from '../helpers.js';
import { rawLines } from '../support/raw-lines.js';

const KEY = 'repeated-credentials-key';
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

async function statusOf(target: string, lines: readonly string[]): Promise<number> {
  const response = await rawLines(port, [
    `${target} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    'Content-Length: 0',
    ...lines,
  ]);
  return response.status;
}

describe('a repeated credentials header', () => {
  it('is refused (401) even when its first line holds the right key', async () => {
    expect(await statusOf('GET /v1/models', [`Authorization: Bearer ${KEY}`])).toBe(200);
    const twice = [
      [`Authorization: Bearer ${KEY}`, 'Authorization: Bearer wrong'],
      [`Authorization: Bearer ${KEY}`, `authorization: Bearer ${KEY}`],
    ];
    for (const lines of twice) {
      expect(await statusOf('POST /api/mcp', lines)).toBe(401);
      expect(await statusOf('GET /v1/models', lines)).toBe(401);
    }
    const key = `X-Session-API-Key: ${KEY}`;
    expect(await statusOf('GET /api/conversations/count', [key])).toBe(200);
    expect(await statusOf('GET /api/conversations/count', [key, key])).toBe(401);
    // The REST API reads no Authorization: a repeated one is not its business.
    expect(
      await statusOf('GET /api/conversations/count', [key, 'Authorization: Bearer a', 'Authorization: Bearer b']),
    ).toBe(200);
  });
});
