import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostOriginCheck, defaultHostNames } from '../../src/security/index.js';
import { removeDir, startTestServer, type TestServer } from '../helpers.js';
import { rawRequest } from '../support/raw-http.js';
import { rawUpgrade } from '../support/raw-websocket.js';

let server: TestServer;
let port: number;

beforeAll(async () => {
  server = await startTestServer({
    config: { allowedHosts: ['proxy.example'], allowedOrigins: ['https://app.example'] },
  });
  port = Number(new URL(server.url).port);
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

describe('Host validation (DNS rebinding)', () => {
  it('answers the loopback names with the server port, on every route', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST.:${port}`, `[::1]:${port}`]) {
      for (const target of ['/health', '/api/conversations/count']) {
        const response = await rawRequest(port, { target, headers: { Host: host } });
        expect({ host, target, status: response.status }).toEqual({ host, target, status: 200 });
      }
    }
  });

  it('refuses another name, another port, a missing or malformed Host with 403 and a JSON reason', async () => {
    const hosts = [
      `attacker.example:${port}`,
      'attacker.example',
      `127.0.0.1:${port + 1}`,
      '127.0.0.1',
      `localhost.attacker.example:${port}`,
      `127.0.0.1:${port}@attacker.example`,
      `attacker.example@127.0.0.1:${port}`,
      '',
    ];
    for (const host of hosts) {
      for (const target of ['/health', '/api/conversations/count', '/no-such-route', `/%61pi/conversations/count`]) {
        const response = await rawRequest(port, { target, headers: { Host: host } });
        expect({ host, target, status: response.status }).toEqual({ host, target, status: 403 });
        expect(JSON.parse(response.body)).toEqual({ detail: expect.stringMatching(/^Forbidden: /) });
      }
    }
  });

  it('checks the authority of an absolute-form target too', async () => {
    const refused = await rawRequest(port, { target: 'http://attacker.example/api/conversations/count' });
    expect(refused.status).toBe(403);
    const allowed = await rawRequest(port, { target: `http://localhost:${port}/api/conversations/count` });
    expect(allowed.status).toBe(200);
  });

  it('accepts names from the allow-list, on any port when the entry has none', async () => {
    for (const host of ['proxy.example', 'proxy.example:443', `PROXY.example:${port}`]) {
      const response = await rawRequest(port, { target: '/api/conversations/count', headers: { Host: host } });
      expect({ host, status: response.status }).toEqual({ host, status: 200 });
    }
  });

  it('refuses the WebSocket upgrade from a foreign Host before looking at the path', async () => {
    const result = await rawUpgrade(port, '/sockets/events/00000000000000000000000000000000', {
      headers: { Host: `attacker.example:${port}` },
    });
    expect(result.status).toBe(403);
  });
});

describe('Origin validation (cross-site pages)', () => {
  it('refuses cross-origin requests by default with 403, on the API and the socket', async () => {
    for (const origin of [
      'http://attacker.example',
      `http://localhost:${port + 1}`,
      'null',
      'file://',
      'https://127.0.0.1',
    ]) {
      for (const method of ['GET', 'POST']) {
        const response = await rawRequest(port, {
          method,
          target: method === 'GET' ? '/api/conversations/count' : '/api/conversations',
          headers: { Origin: origin },
          ...(method === 'POST' ? { body: '{}' } : {}),
        });
        expect({ origin, method, status: response.status }).toEqual({ origin, method, status: 403 });
        expect(response.body).toContain('cross-origin');
      }
      const socket = await rawUpgrade(port, '/sockets/events/00000000000000000000000000000000', {
        headers: { Origin: origin },
      });
      expect({ origin, status: socket.status }).toEqual({ origin, status: 403 });
    }
  });

  it('refuses a browser no-cors request from another site (Sec-Fetch-Site without Origin)', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const response = await rawRequest(port, {
        target: '/api/conversations/count',
        headers: { 'Sec-Fetch-Site': site },
      });
      expect(response.status).toBe(403);
    }
    const same = await rawRequest(port, {
      target: '/api/conversations/count',
      headers: { 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(same.status).toBe(200);
  });

  it('accepts same-origin requests and the allowed origins', async () => {
    for (const origin of [`http://127.0.0.1:${port}`, 'https://app.example', 'https://APP.example:443']) {
      const response = await rawRequest(port, { target: '/api/conversations/count', headers: { Origin: origin } });
      expect({ origin, status: response.status }).toEqual({ origin, status: 200 });
    }
  });
});

describe('createHostOriginCheck', () => {
  it('accepts any Host and Origin only when told so with "*"', () => {
    const open = createHostOriginCheck({
      bindHost: '127.0.0.1',
      allowedHosts: ['*'],
      allowedOrigins: ['*'],
      port: () => 1,
    });
    expect(open({ host: 'anything.example', origin: 'http://x.example' }, '/')).toBeUndefined();
    const closed = createHostOriginCheck({
      bindHost: '127.0.0.1',
      allowedHosts: [],
      allowedOrigins: [],
      port: () => 1,
    });
    expect(closed({ host: 'anything.example:1' }, '/')?.status).toBe(403);
    expect(closed({ host: '127.0.0.1:1', origin: 'http://x.example' }, '/')?.status).toBe(403);
  });

  it('judges by name alone while the server is not listening (inject)', () => {
    const check = createHostOriginCheck({
      bindHost: '127.0.0.1',
      allowedHosts: [],
      allowedOrigins: [],
      port: () => undefined,
    });
    expect(check({ host: 'localhost:1234' }, '/')).toBeUndefined();
    expect(check({ host: 'attacker.example:1234' }, '/')?.status).toBe(403);
  });

  it('adds the bind address to the default names, and the machine’s addresses for a wildcard bind', () => {
    expect(defaultHostNames('10.1.2.3')).toEqual(
      expect.arrayContaining(['localhost', '127.0.0.1', '[::1]', '10.1.2.3']),
    );
    expect(defaultHostNames('::1')).toContain('[::1]');
    expect(defaultHostNames('0.0.0.0').length).toBeGreaterThan(3);
  });
});
