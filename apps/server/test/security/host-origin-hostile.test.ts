import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostOriginCheck } from '../../src/security/index.js';
import { removeDir, startTestServer, type TestServer } from '../helpers.js';
import { rawRequest } from '../support/raw-http.js';
import { rawLines } from '../support/raw-lines.js';
import { rawUpgrade } from '../support/raw-websocket.js';
import { refusalMessage } from '../support/refusal-message.js';

const KEY = 'hostile-host-key';
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

/** One route of every face: health, the REST API, AG-UI, A2A (card and JSON-RPC), MCP, OpenAI, the viewer, a 404. */
const faces = [
  { method: 'GET', target: '/health' },
  { method: 'GET', target: '/api/conversations/count' },
  { method: 'POST', target: '/api/ag-ui' },
  { method: 'POST', target: '/api/a2a' },
  { method: 'GET', target: '/.well-known/agent-card.json' },
  { method: 'POST', target: '/api/mcp' },
  { method: 'GET', target: '/v1/models' },
  { method: 'POST', target: '/v1/chat/completions' },
  { method: 'POST', target: '/v1/responses' },
  { method: 'GET', target: '/' },
  { method: 'GET', target: '/assets/index.js' },
  { method: 'GET', target: '/docs' },
  { method: 'GET', target: '/no-such-route' },
];

/** Names an attacker's page can make a browser send as `Host` (DNS rebinding) or a client can type, foreign all. */
function foreignHosts(): string[] {
  return [
    'attacker.example',
    `attacker.example:${port}`,
    `ATTACKER.EXAMPLE.:${port}`,
    `localhost.attacker.example:${port}`,
    `127.0.0.1.nip.io:${port}`,
    `127.0.0.1.attacker.example:${port}`,
    `sub.localhost:${port}`,
    `localhost..:${port}`,
    `.localhost:${port}`,
    `[::ffff:127.0.0.1]:${port}`,
    `attacker.example@localhost:${port}`,
    `localhost:${port}@attacker.example`,
    `localhost:${port}, attacker.example`,
    `localhost:${port} attacker.example`,
    `localhost:${port}/attacker.example`,
    `localhost:${port}\\attacker.example`,
    `localhost:${port}#attacker.example`,
    `localhost:${port}?x`,
    `localhost:${port + 1}`,
    'localhost',
    '127.0.0.1',
    'localhost:',
    `localhost:${port}:${port}`,
    `localhost:${port}x`,
    'localhost:65536',
    `localhost:-${port}`,
    `ｌｏｃａｌｈｏｓｔ:${port}`,
    `http://localhost:${port}`,
    '*',
    '',
  ];
}

/** Other spellings of the loopback names: the WHATWG URL parser gives each the same canonical host. */
function loopbackSpellings(): string[] {
  return [
    `LOCALHOST:${port}`,
    `LocalHost.:${port}`,
    `localhost:0${port}`,
    `127.1:${port}`,
    `0x7f.0.0.1:${port}`,
    `0177.0.0.1:${port}`,
    `2130706433:${port}`,
    `[0:0:0:0:0:0:0:1]:${port}`,
    `[::1]:${port}`,
  ];
}

describe('Host: every spelling is judged on its canonical form, on every face', () => {
  it('refuses every foreign spelling with 403 and a reason in the face’s shape on every face and on the socket', async () => {
    const got: string[] = [];
    for (const host of foreignHosts()) {
      for (const face of faces) {
        const response = await rawRequest(port, { method: face.method, target: face.target, headers: { Host: host } });
        const reason = response.status === 403 ? refusalMessage(JSON.parse(response.body)) : '';
        if (!reason.startsWith('Forbidden: '))
          got.push(`${face.method} ${face.target} Host ${host} → ${response.status}`);
      }
      const socket = await rawUpgrade(port, '/sockets/events/x', { headers: { Host: host } });
      if (socket.status !== 403) got.push(`upgrade Host ${host} → ${socket.status}`);
    }
    expect(got).toEqual([]);
  });

  it('accepts the loopback names however they are spelled (the same address, never a DNS name)', async () => {
    for (const host of loopbackSpellings()) {
      const response = await rawRequest(port, { target: '/health', headers: { Host: host } });
      expect({ host, status: response.status }).toEqual({ host, status: 200 });
    }
  });

  it('refuses a request with two Host lines, in either order, whatever their case, on every face', async () => {
    const good = `127.0.0.1:${port}`;
    const pairs = [
      ['Host', good, 'Host', 'attacker.example'],
      ['Host', 'attacker.example', 'Host', good],
      ['Host', good, 'host', 'attacker.example'],
      ['HOST', good, 'Host', good],
    ];
    const got: string[] = [];
    for (const [firstName, first, secondName, second] of pairs) {
      for (const face of faces) {
        const response = await rawLines(port, [
          `${face.method} ${face.target} HTTP/1.1`,
          `${firstName}: ${first}`,
          `${secondName}: ${second}`,
          `X-Session-API-Key: ${KEY}`,
          'Content-Length: 0',
        ]);
        if (response.status !== 403) got.push(`${face.target} ${first} + ${second} → ${response.status}`);
      }
      const upgrade = await rawLines(port, [
        'GET /sockets/events/x HTTP/1.1',
        `${firstName}: ${first}`,
        `${secondName}: ${second}`,
        'Upgrade: websocket',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        'Sec-WebSocket-Version: 13',
      ]);
      if (upgrade.status !== 403) got.push(`upgrade ${first} + ${second} → ${upgrade.status}`);
    }
    expect(got).toEqual([]);
    const response = await rawLines(port, ['GET /health HTTP/1.1', `Host: ${good}`, 'Host: attacker.example']);
    expect(JSON.parse(response.body)).toEqual({ detail: 'Forbidden: more than one Host header' });
  });

  it('refuses an HTTP/1.0 request without Host and any absolute-form target naming a foreign host', async () => {
    expect((await rawLines(port, ['GET /health HTTP/1.0'])).status).toBe(403);
    const targets = [
      'http://attacker.example/health',
      'HTTP://ATTACKER.EXAMPLE/health',
      `http://attacker.example:${port}/health`,
      `http://localhost.attacker.example:${port}/health`,
      `http://attacker.example@localhost:${port}/health`,
      `http://localhost:${port}@attacker.example/health`,
      `http://localhost:${port + 1}/health`,
      'http:attacker.example/health',
      'attacker.example/health',
      `http://[::ffff:127.0.0.1]:${port}/health`,
    ];
    for (const target of targets) {
      for (const face of faces) {
        const path = face.target.slice(1);
        const response = await rawRequest(port, { method: face.method, target: target.replace('health', path) });
        // 400: Node's parser refused the target itself before any route or hook saw it.
        expect({ target, face: face.target, refused: [400, 403].includes(response.status) }).toEqual({
          target,
          face: face.target,
          refused: true,
        });
      }
    }
  });

  it('never trusts X-Forwarded-Host, Forwarded or X-Forwarded-Proto (no proxy is configured)', async () => {
    const forwarded = {
      'X-Forwarded-Host': `localhost:${port}`,
      Forwarded: `host=localhost:${port};proto=http`,
      'X-Real-Host': `localhost:${port}`,
    };
    const refused = await rawRequest(port, { target: '/health', headers: { Host: 'attacker.example', ...forwarded } });
    expect(refused.status).toBe(403);
    const card = await rawRequest(port, {
      target: '/.well-known/agent-card.json',
      headers: {
        'X-Forwarded-Host': 'attacker.example',
        'X-Forwarded-Proto': 'https',
        Forwarded: 'host=attacker.example',
      },
    });
    expect(card.status).toBe(200);
    expect(card.body).not.toContain('attacker.example');
    expect(card.body).toContain(`http://127.0.0.1:${port}`);
  });
});

describe('Origin: only a same-origin or allowed origin, spelled as a browser spells one', () => {
  function foreignOrigins(): string[] {
    return [
      'null',
      'NULL',
      'file://',
      'file:///etc/passwd',
      `chrome-extension://abcdef`,
      `ws://127.0.0.1:${port}`,
      `http://127.0.0.1:${port}/path`,
      `http://127.0.0.1:${port}?q`,
      `http://127.0.0.1:${port}#f`,
      `http://127.0.0.1:${port}\\path`,
      `http://attacker.example@127.0.0.1:${port}`,
      `http://127.0.0.1:${port}@attacker.example`,
      `http://127.0.0.1:${port}.attacker.example`,
      `http://127.0.0.1.nip.io:${port}`,
      `http://localhost.attacker.example:${port}`,
      `http://127.0.0.1:${port + 1}`,
      'http://127.0.0.1',
      `http://127.0.0.1:${port}, http://attacker.example`,
      `http://attacker.example, http://127.0.0.1:${port}`,
      ` http://attacker.example`,
      `http://attacker.example`,
      `https://attacker.example`,
      `http:/127.0.0.1:${port}`,
      `//127.0.0.1:${port}`,
      `127.0.0.1:${port}`,
      '*',
      '',
    ];
  }

  it('refuses every foreign spelling on every face and on the socket', async () => {
    const got: string[] = [];
    for (const origin of foreignOrigins()) {
      for (const face of faces) {
        const response = await rawRequest(port, {
          method: face.method,
          target: face.target,
          headers: { Origin: origin },
        });
        if (response.status !== 403) got.push(`${face.target} Origin ${origin} → ${response.status}`);
      }
      const socket = await rawUpgrade(port, '/sockets/events/x', { headers: { Origin: origin } });
      if (socket.status !== 403) got.push(`upgrade Origin ${origin} → ${socket.status}`);
    }
    expect(got).toEqual([]);
  });

  it('refuses two Origin lines even when one is the server itself', async () => {
    const response = await rawLines(port, [
      'GET /health HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      `Origin: http://127.0.0.1:${port}`,
      'Origin: http://attacker.example',
    ]);
    expect(response.status).toBe(403);
  });

  it('accepts the same origin in the scheme and host case a client may use', async () => {
    for (const origin of [`http://127.0.0.1:${port}`, `HTTP://127.0.0.1:${port}`, `http://127.0.0.1:${port}/`]) {
      const response = await rawRequest(port, { target: '/health', headers: { Origin: origin } });
      expect({ origin, status: response.status }).toEqual({ origin, status: 200 });
    }
  });
});

describe('createHostOriginCheck refusals', () => {
  const check = createHostOriginCheck({
    bindHost: '127.0.0.1',
    allowedHosts: [],
    allowedOrigins: ['https://app.example'],
    port: () => 8000,
  });

  it('name what was wrong in a typed problem', () => {
    const host = { host: '127.0.0.1:8000' };
    expect(check({}, '/')?.problem).toBe('missing_host');
    expect(check(host, '/', ['Host', '127.0.0.1:8000', 'host', 'x'])?.problem).toBe('duplicate_host');
    expect(check({ host: 'x' }, '/')?.problem).toBe('host_not_allowed');
    expect(check(host, 'http://x/')?.problem).toBe('target_host_not_allowed');
    expect(check({ ...host, origin: 'https://evil.example' }, '/')?.problem).toBe('origin_not_allowed');
    expect(check({ ...host, 'sec-fetch-site': 'cross-site' }, '/')?.problem).toBe('cross_site');
    expect(check({ ...host, origin: 'https://app.example' }, '/', ['Host', '127.0.0.1:8000'])).toBeUndefined();
  });

  it('does not take an allowed origin spelled with userinfo or a path', () => {
    const host = { host: '127.0.0.1:8000' };
    for (const origin of ['https://evil@app.example', 'https://app.example/x', 'https://app.example\\x']) {
      expect({ origin, problem: check({ ...host, origin }, '/')?.problem }).toEqual({
        origin,
        problem: 'origin_not_allowed',
      });
    }
  });
});
