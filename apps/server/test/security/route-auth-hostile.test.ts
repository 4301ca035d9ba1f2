import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../../src/index.js';
import { isValidSessionKey } from '../../src/websocket/session-keys.js';
import { removeDir, startTestServer, type TestServer } from '../helpers.js';
import { rawRequest } from '../support/raw-http.js';
import { rawLines } from '../support/raw-lines.js';

const KEY = 'Hostile-Route-Key-0123';
let server: TestServer;
let port: number;

beforeAll(async () => {
  server = await startTestServer({ config: { apiKeys: [KEY, 'second-key-of-the-server'] } });
  port = Number(new URL(server.url).port);
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

/** Routes that are public by design (health, the documents, the viewer, the A2A card, the docs page). */
const publicUrls = new Set(['/', '/alive', '/health', '/ready', '/server_info', '/openapi.json']);
function isPublic(url: string): boolean {
  return (
    publicUrls.has(url) ||
    url === '/.well-known/agent-card.json' ||
    url === '/assets/:file' ||
    url === '/docs' ||
    url.startsWith('/docs/')
  );
}

function protectedRoutes(): RegisteredRoute[] {
  return server.built.routes.filter((route) => !isPublic(route.url));
}

function concrete(route: RegisteredRoute): string {
  return route.url.replace(/:[a-z_]+/g, 'no-such-id');
}

/** Spellings of the key that are not the key: a client bug or an attacker guessing how it is compared. */
const wrongKeys = [
  KEY.toLowerCase(),
  KEY.toUpperCase(),
  KEY.slice(0, -1),
  `${KEY}x`,
  `${KEY}%00`,
  `x${KEY}`,
  `${KEY.slice(0, 5)} ${KEY.slice(5)}`,
  encodeURIComponent(KEY).replace('-', '%2D'),
  KEY.replace('o', 'о'), // Cyrillic o
  Buffer.from(KEY).toString('base64'),
  `${KEY},${KEY}`,
  `"${KEY}"`,
  `${KEY}second-key-of-the-server`,
];

describe('credentials: only the key, only where the route takes it', () => {
  it('refuses every protected route a key in the query string, under any name', async () => {
    const got: string[] = [];
    for (const route of protectedRoutes()) {
      for (const name of ['session_api_key', 'X-Session-API-Key', 'x-session-api-key', 'api_key', 'key', 'token']) {
        const target = `${concrete(route)}?${name}=${encodeURIComponent(KEY)}`;
        const response = await rawRequest(port, { method: route.method, target });
        if (response.status !== 401) got.push(`${route.method} ${target} → ${response.status}`);
      }
    }
    expect(got).toEqual([]);
  });

  it('refuses every protected route each wrong spelling of the key, in the header and as a bearer token', async () => {
    const got: string[] = [];
    for (const route of protectedRoutes()) {
      for (const wrong of wrongKeys) {
        for (const headers of [{ 'X-Session-API-Key': wrong }, { Authorization: `Bearer ${wrong}` }] as Record<
          string,
          string
        >[]) {
          const response = await rawRequest(port, { method: route.method, target: concrete(route), headers });
          if (response.status !== 401)
            got.push(`${route.method} ${route.url} ${JSON.stringify(headers)} → ${response.status}`);
        }
      }
    }
    expect(got).toEqual([]);
  });

  it('takes Authorization: Bearer only on the OpenAI and MCP faces (their clients send the key so), nowhere else', async () => {
    const got: string[] = [];
    for (const route of protectedRoutes()) {
      const response = await rawRequest(port, {
        method: route.method,
        target: concrete(route),
        headers: { Authorization: `Bearer ${KEY}` },
      });
      const bearerRoute = route.url.startsWith('/v1/') || route.url === '/api/mcp';
      if ((response.status === 401) === bearerRoute) got.push(`${route.method} ${route.url} → ${response.status}`);
    }
    expect(got).toEqual([]);
  });

  it('answers a refused bearer with a Bearer challenge, in the face’s own error shape', async () => {
    const mcp = await rawRequest(port, { method: 'POST', target: '/api/mcp', headers: { Authorization: 'Bearer no' } });
    expect([mcp.status, mcp.headers['www-authenticate'], JSON.parse(mcp.body)]).toEqual([
      401,
      'Bearer realm="x"',
      {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32000,
          message:
            'Unauthorized: no session key, or a wrong one: send a session key of this server as Authorization: Bearer <key> or X-Session-API-Key',
          data: { status: 401, reason: 'unauthorized' },
        },
      },
    ]);
    const openai = await rawRequest(port, { target: '/v1/models', headers: { Authorization: 'Bearer no' } });
    expect([openai.status, openai.headers['www-authenticate'], JSON.parse(openai.body).error.code]).toEqual([
      401,
      'Bearer realm="x"',
      'invalid_api_key',
    ]);
    // The REST API takes no bearer token: no challenge to offer.
    const rest = await rawRequest(port, {
      target: '/api/conversations/search',
      headers: { Authorization: 'Bearer no' },
    });
    expect([rest.status, rest.headers['www-authenticate'], JSON.parse(rest.body)]).toEqual([
      401,
      undefined,
      { detail: 'Unauthorized' },
    ]);
  });

  it('reads the bearer scheme case-insensitively with any run of blanks, and nothing else as a bearer token', async () => {
    for (const accepted of [`Bearer ${KEY}`, `bearer ${KEY}`, `BEARER ${KEY}`, `Bearer   ${KEY}`, `Bearer\t${KEY}`]) {
      const response = await rawRequest(port, { target: '/v1/models', headers: { Authorization: accepted } });
      expect({ accepted, status: response.status }).toEqual({ accepted, status: 200 });
    }
    const refused = [
      `Bearer${KEY}`,
      `Bearer ${KEY} extra`,
      `Bearer ${KEY}, Bearer ${KEY}`,
      `Basic ${Buffer.from(`user:${KEY}`).toString('base64')}`,
      `Basic ${Buffer.from(KEY).toString('base64')}`,
      `Token ${KEY}`,
      `Bearer: ${KEY}`,
      `Bearer="${KEY}"`,
      KEY,
      '',
    ];
    for (const authorization of refused) {
      const response = await rawRequest(port, { target: '/v1/models', headers: { Authorization: authorization } });
      expect({ authorization, status: response.status }).toEqual({ authorization, status: 401 });
      expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'invalid_api_key' } });
    }
  });

  it('refuses a repeated key header or Authorization whichever line holds the right key', async () => {
    for (const [name, right, wrong] of [
      ['X-Session-API-Key', KEY, 'wrong'],
      ['Authorization', `Bearer ${KEY}`, 'Bearer wrong'],
    ] as const) {
      for (const lines of [
        [`${name}: ${wrong}`, `${name}: ${right}`],
        [`${name}: ${right}`, `${name}: ${wrong}`],
      ]) {
        const target = name === 'Authorization' ? '/v1/models' : '/api/conversations/count';
        const response = await rawLines(port, [`GET ${target} HTTP/1.1`, `Host: 127.0.0.1:${port}`, ...lines]);
        // Node keeps the first Authorization (a proxy in front may read the other) and joins repeated X- headers with
        // ", ": a credentials header sent twice is refused, whichever line holds the key.
        expect({ lines, status: response.status }).toEqual({ lines, status: 401 });
      }
    }
  });
});

describe('isValidSessionKey', () => {
  it('compares every key in full (no early exit on the first match or a length difference)', () => {
    const keys = ['a', 'b'.repeat(1000), KEY];
    expect(isValidSessionKey(keys, KEY)).toBe(true);
    expect(isValidSessionKey(keys, 'a')).toBe(true);
    for (const wrong of [...wrongKeys, '', 'a ', undefined, null, 42, ['a'], { toString: () => KEY }]) {
      expect(isValidSessionKey(keys, wrong)).toBe(false);
    }
    expect(isValidSessionKey([], KEY)).toBe(false);
  });
});
