// installRouteAuth on a small Fastify app (inject, no server): the key a request presents, the `Authorization:
// Bearer` form on the routes that take it (and OpenAI's error body there), the public routes and scopes, and a
// route's own onRequest hooks kept, after the check.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { installRouteAuth, makeScopePublic } from '../../src/security/route-auth.js';

const KEY = 'the-session-key';
const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

async function appWith(keys: readonly string[]): Promise<{ app: FastifyInstance; hooked: string[] }> {
  const app = Fastify();
  apps.push(app);
  const hooked: string[] = [];
  installRouteAuth(app, keys);
  app.get('/protected', async () => ({ ok: true }));
  app.get('/public', { config: { public: true } }, async () => ({ ok: true }));
  app.get('/bearer', { config: { bearerAuth: true } }, async () => ({ ok: true }));
  app.get('/bearer-openai', { config: { bearerAuth: 'openai' } }, async () => ({ ok: true }));
  app.get(
    '/hooked',
    {
      onRequest: (_request, _reply, done) => {
        hooked.push('hook');
        done();
      },
    },
    async () => ({ ok: true }),
  );
  await app.register(async (scope) => {
    makeScopePublic(scope);
    scope.get('/docs', async () => ({ ok: true }));
  });
  await app.ready();
  return { app, hooked };
}

const get = (app: FastifyInstance, url: string, headers: Record<string, string | string[]> = {}) =>
  app.inject({ method: 'GET', url, headers });

describe('the session key check on each route', () => {
  it('takes the X-Session-API-Key header', async () => {
    const { app } = await appWith([KEY]);
    const refused = await get(app, '/protected');
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ detail: 'Unauthorized' });
    expect((await get(app, '/protected', { 'x-session-api-key': 'wrong' })).statusCode).toBe(401);
    expect((await get(app, '/protected', { 'x-session-api-key': KEY })).statusCode).toBe(200);
    // A repeated header reaches the route joined (`a, b`): no key.
    expect((await get(app, '/protected', { 'x-session-api-key': [KEY, KEY] })).statusCode).toBe(401);
    // The Bearer form is for the routes that say so only.
    expect((await get(app, '/protected', { authorization: `Bearer ${KEY}` })).statusCode).toBe(401);
  });

  it('lets everything through without keys, and leaves public routes and scopes open', async () => {
    const open = await appWith([]);
    expect((await get(open.app, '/protected')).statusCode).toBe(200);
    expect((await get(open.app, '/bearer')).statusCode).toBe(200);
    const { app } = await appWith([KEY]);
    expect((await get(app, '/public')).statusCode).toBe(200);
    expect((await get(app, '/docs')).statusCode).toBe(200);
  });

  it('on a bearer route, takes `Authorization: Bearer <key>` (or the header) and answers in the route’s shape, with a Bearer challenge', async () => {
    const { app } = await appWith([KEY]);
    for (const route of ['/bearer', '/bearer-openai']) {
      for (const authorization of [`Bearer ${KEY}`, `bearer ${KEY}`, `BEARER\t${KEY}  `]) {
        expect((await get(app, route, { authorization })).statusCode, `${route} ${authorization}`).toBe(200);
      }
      expect((await get(app, route, { 'x-session-api-key': KEY })).statusCode).toBe(200);
      for (const authorization of ['Bearer wrong', `Basic ${KEY}`, KEY, `Bearer ${KEY} extra`, '']) {
        const refused = await get(app, route, { authorization });
        expect(refused.statusCode, `${route} ${authorization}`).toBe(401);
        expect(refused.headers['www-authenticate'], `${route} ${authorization}`).toBe('Bearer realm="x"');
        if (route === '/bearer') expect(refused.json(), authorization).toEqual({ detail: 'Unauthorized' });
        else {
          expect(refused.json(), authorization).toMatchObject({
            error: { type: 'authentication_error', code: 'invalid_api_key' },
          });
        }
      }
    }
    expect((await get(app, '/bearer-openai')).json()).toMatchObject({ error: { code: 'invalid_api_key' } });
    // A route that takes no bearer token offers no challenge.
    expect((await get(app, '/protected')).headers['www-authenticate']).toBeUndefined();
  });

  it('runs first, before the route’s own onRequest hooks, which are kept', async () => {
    const { app, hooked } = await appWith([KEY]);
    expect((await get(app, '/hooked')).statusCode).toBe(401);
    expect(hooked).toEqual([]);
    expect((await get(app, '/hooked', { 'x-session-api-key': KEY })).statusCode).toBe(200);
    expect(hooked).toEqual(['hook']);
  });
});
