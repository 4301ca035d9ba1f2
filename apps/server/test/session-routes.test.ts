import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, removeDir, startTestServer, type TestServer } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

describe('session state and artifacts over REST', () => {
  it('changes the session state and saves, lists and downloads artifact versions', async () => {
    const id = await createConversation(server);
    const base = `/api/conversations/${id}`;
    expect(await server.call('GET', `${base}/session`)).toEqual({ status: 200, json: { state: {}, artifacts: {} } });
    const patched = await server.call('PATCH', `${base}/session`, { state_delta: { user: 'ada', step: 1 } });
    expect(patched).toEqual({ status: 200, json: { state: { user: 'ada', step: 1 }, artifacts: {} } });
    await server.call('PATCH', `${base}/session`, { state_delta: { step: null } });

    expect(
      await server.call('POST', `${base}/artifacts/report.md`, { text: '# v1', mime_type: 'text/markdown' }),
    ).toEqual({
      status: 201,
      json: { name: 'report.md', version: 1 },
    });
    const bytes = Buffer.from([0, 255, 1]).toString('base64');
    expect((await server.call('POST', `${base}/artifacts/report.md`, { base64: bytes })).json).toEqual({
      name: 'report.md',
      version: 2,
    });
    expect((await server.call('GET', `${base}/session`)).json).toEqual({
      state: { user: 'ada' },
      artifacts: { 'report.md': 2 },
    });

    const first = await fetch(`${server.url}${base}/artifacts/report.md?version=1`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/markdown');
    expect(await first.text()).toBe('# v1');
    const latest = await fetch(`${server.url}${base}/artifacts/report.md`);
    expect(latest.headers.get('x-artifact-version')).toBe('2');
    expect([...new Uint8Array(await latest.arrayBuffer())]).toEqual([0, 255, 1]);
  });

  it('serves an artifact as a download that no browser runs: HTML and SVG saved by an agent stay inert', async () => {
    const id = await createConversation(server);
    const base = `/api/conversations/${id}`;
    for (const [name, type] of [
      ['page.html', 'text/html'],
      ['logo.svg', 'image/svg+xml'],
      ['notes', 'text/plain'],
    ] as const) {
      await server.call('POST', `${base}/artifacts/${name}`, { text: '<script>alert(1)</script>', mime_type: type });
      const served = await fetch(`${server.url}${base}/artifacts/${name}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe(type);
      expect(served.headers.get('content-disposition')).toBe(`attachment; filename*=UTF-8''${name}`);
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      expect(await served.text()).toBe('<script>alert(1)</script>');
    }
  });

  it('answers bad input with typed errors and records nothing', async () => {
    const id = await createConversation(server);
    const base = `/api/conversations/${id}`;
    expect((await server.call('GET', `${base}/artifacts/missing`)).status).toBe(404);
    expect((await server.call('PATCH', `${base}/session`, { state_delta: [] })).status).toBe(422);
    expect((await server.call('PATCH', `${base}/session`, { delta: {} })).status).toBe(422);
    expect((await server.call('POST', `${base}/artifacts/a`, { text: 'x', base64: 'eA==' })).status).toBe(422);
    expect((await server.call('POST', `${base}/artifacts/a%01b`, { text: 'x' })).status).toBe(422);
    expect((await server.call('GET', `${base}/session`)).json).toEqual({ state: {}, artifacts: {} });
  });
});
