import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerViewerRoutes, VIEWER_CSP } from '../../src/viewer/index.js';
import { removeDir, startTestServer, type TestServer } from '../helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ config: { apiKeys: ['routes-key'] } });
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

describe('viewer routes', () => {
  it('serves the page at / without the key, with a strict CSP, while the API still wants the key', async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toBe(VIEWER_CSP);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).toContain('/assets/app.js');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(VIEWER_CSP).toContain("default-src 'none'");
    expect(VIEWER_CSP).toContain("script-src 'self'");
    expect(VIEWER_CSP).not.toContain('unsafe');

    expect((await fetch(`${server.url}/api/conversations/count`)).status).toBe(401);
  });

  it('serves only the built files, with their types', async () => {
    const script = await fetch(`${server.url}/assets/app.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('text/javascript');
    expect((await script.text()).length).toBeGreaterThan(1000);
    const style = await fetch(`${server.url}/assets/app.css`);
    expect(style.headers.get('content-type')).toContain('text/css');
    for (const path of [
      '/assets/nothing.js',
      '/assets/manifest.json',
      '/assets/..%2Fpackage.json',
      '/assets/index.html',
    ]) {
      expect((await fetch(`${server.url}${path}`)).status, path).toBe(404);
    }
  });

  it('marks its routes public for the route-level auth hook', async () => {
    const app = Fastify();
    const seen: { url: string; isPublic: unknown }[] = [];
    app.addHook('onRoute', (route) => {
      seen.push({ url: route.url, isPublic: route.config?.public });
    });
    registerViewerRoutes(app);
    await app.ready();
    // GET and the HEAD Fastify adds for each.
    expect(new Set(seen.map((route) => route.url))).toEqual(new Set(['/', '/assets/:file']));
    expect(seen.every((route) => route.isPublic === true)).toBe(true);
    await app.close();
  });
});
