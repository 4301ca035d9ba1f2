// A session key a client puts in the URL is refused (keys go in headers), but the request is logged first: every
// way a client may write it as a parameter must reach the log redacted, on every face.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED, redactUrl } from '../../src/security/index.js';
import { removeDir, startTestServer, type TestServer } from '../helpers.js';
import { rawRequest } from '../support/raw-http.js';

const SECRET = 'Url-Secret-0123456789abcdef';

/** Request targets passing SECRET as a parameter: `;` parameters of the path or the query, a second `?`. */
function targets(path: string): string[] {
  return [
    `${path};session_api_key=${SECRET}`,
    `${path};x=1;token=${SECRET}`,
    `${path}?a=1;session_api_key=${SECRET}`,
    `${path}?a=1?session_api_key=${SECRET}`,
    `${path}?a=1&b=2;api_key=${SECRET}&c=3`,
    `${path}?%73ession_api_key=${SECRET}`,
    `${path}?session_api_key=${SECRET}=more`,
  ];
}

describe('redactUrl', () => {
  it('redacts a key-like parameter after ?, & or ;, in the path or the query', () => {
    for (const target of targets('/api/conversations')) {
      expect(redactUrl(target), target).not.toContain(SECRET);
      expect(redactUrl(target), target).toContain(REDACTED);
    }
  });

  it('keeps everything else as written', () => {
    expect(redactUrl('/api/a;x=1?q=token;flag&n=2')).toBe('/api/a;x=1?q=token;flag&n=2');
    expect(redactUrl('/api/a;token=1?q=2')).toBe(`/api/a;token=${REDACTED}?q=2`);
  });
});

describe('the request log of every face', () => {
  let server: TestServer;
  let port: number;
  const log: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({
      config: { apiKeys: ['the-real-key-of-the-server'], logLevel: 'trace' },
      build: { logStream: { write: (line: string) => void log.push(line) } },
    });
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server.stop();
    await removeDir(server.dataDir);
  });

  it('never holds a key passed as a parameter, whatever the answer', async () => {
    const paths = ['/api/conversations', '/api/ag-ui', '/api/a2a', '/api/mcp', '/v1/chat/completions', '/v1/models'];
    for (const path of paths) {
      for (const target of targets(path)) {
        const response = await rawRequest(port, { method: 'GET', target });
        expect(response.status, target).toBeGreaterThanOrEqual(400);
      }
    }
    await waitForLines(() => log.filter((line) => line.includes('request completed')).length >= paths.length * 7);
    expect(log.filter((line) => line.includes('incoming request')).length).toBeGreaterThanOrEqual(paths.length * 7);
    expect(log.filter((line) => line.includes(SECRET))).toEqual([]);
  });
});

async function waitForLines(done: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 500 && !done(); attempt++) await new Promise((resolve) => setImmediate(resolve));
}
