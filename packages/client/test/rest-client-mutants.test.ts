import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import type { XServe } from '@x/browser-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createConversationCommands,
  RemoteAuthError,
  RemoteConversationNotFoundError,
  RemoteRequestError,
  RemoteRouteNotFoundError,
} from '../src/index.js';
import { RestClient } from '../src/internal/rest-client.js';
import { api, KEY, scriptedAgent, startServer, TEST_TIMEOUT } from './support/x-server.js';

let server: XServe;
let id: string;
beforeAll(async () => {
  server = await startServer();
  const info = (await api(server, 'POST', '/api/conversations', {
    agent: scriptedAgent([]),
    workspace: { working_dir: '.' },
  })) as { id: string };
  id = info.id;
});
afterAll(async () => {
  await server?.stop();
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );

describe('the REST calls of the client against x serve', TEST_TIMEOUT, () => {
  it('sends the key, the query and a JSON body to the server named with or without trailing slashes', async () => {
    const rest = new RestClient(`${server.url}//`, KEY);
    expect(rest.serverUrl).toBe(server.url);
    await rest.request('POST', `/api/conversations/${id}/events`, {
      body: { role: 'user', content: [{ type: 'text', text: 'by rest' }] },
    });
    const count = await rest.request<number>('GET', `/api/conversations/${id}/events/count`);
    expect(count).toBe(2);
    // A query value left undefined is not sent; the others are.
    const page = await rest.request<{ items: unknown[] }>('GET', `/api/conversations/${id}/events/search`, {
      query: { limit: 1, page_id: undefined },
    });
    expect(page.items).toHaveLength(1);
    const body = await rest.request('POST', `/api/conversations/${id}/pause`, { body: {} });
    expect(body).toEqual({ success: true });
  });

  it('turns a refused key into RemoteAuthError', async () => {
    for (const key of [undefined, 'wrong']) {
      const error = await failure(new RestClient(server.url, key).request('GET', `/api/conversations/${id}`));
      expect(RemoteAuthError.isInstance(error)).toBe(true);
    }
  });

  it('returns the body of a status it was told to allow, and throws the detail of others', async () => {
    const rest = new RestClient(server.url, KEY);
    const invalid = { agent: 5 };
    const allowed = await rest.request<{ detail: unknown }>('POST', '/api/conversations', {
      body: invalid,
      allow: [422],
    });
    expect(Array.isArray(allowed.detail)).toBe(true);
    const error = await failure(rest.request('POST', '/api/conversations', { body: invalid }));
    expect(RemoteRequestError.isInstance(error)).toBe(true);
    expect((error as RemoteRequestError).status).toBe(422);
    // A structured detail is kept as its JSON.
    expect(JSON.parse((error as RemoteRequestError).detail)).toEqual(allowed.detail);
  });

  it('tells a missing conversation, a missing route and a missing event apart', async () => {
    const rest = new RestClient(server.url, KEY);
    const missing = crypto.randomUUID();
    const gone = await failure(rest.request('GET', `/api/conversations/${missing}`, { conversationId: missing }));
    expect(RemoteConversationNotFoundError.isInstance(gone)).toBe(true);

    const route = await failure(rest.request('POST', `/api/conversations/${id}/nosuch`, { conversationId: id }));
    expect(RemoteRouteNotFoundError.isInstance(route)).toBe(true);
    expect((route as RemoteRouteNotFoundError).method).toBe('POST');

    const routeOfMissing = await failure(
      rest.request('POST', `/api/conversations/${missing}/nosuch`, { conversationId: missing }),
    );
    expect(RemoteConversationNotFoundError.isInstance(routeOfMissing)).toBe(true);

    const event = await failure(
      rest.request('POST', `/api/conversations/${id}/navigate`, {
        body: { event_id: crypto.randomUUID() },
        conversationId: id,
      }),
    );
    expect(RemoteConversationNotFoundError.isInstance(event)).toBe(false);
    expect(RemoteRouteNotFoundError.isInstance(event)).toBe(false);
    expect(event).toMatchObject({ code: 'remote_request_failed', status: 404 });
    expect((event as RemoteRequestError).detail).toMatch(/unknown event id/i);

    // Without a conversation to look up, a 404 is only a failed request.
    const plain = await failure(rest.request('GET', `/api/conversations/${missing}`));
    expect(RemoteConversationNotFoundError.isInstance(plain)).toBe(false);
    expect(plain).toMatchObject({ code: 'remote_request_failed', status: 404 });
    expect((plain as RemoteRequestError).detail).toContain(missing);
  });

  it('reports a missing conversation as such from pause and interrupt, which answer it with 400', async () => {
    const missing = crypto.randomUUID();
    const commands = createConversationCommands(server.url, missing, { apiKey: KEY });
    for (const command of [commands.pause, commands.interrupt]) {
      const error = await failure(command());
      expect(RemoteConversationNotFoundError.isInstance(error)).toBe(true);
      expect((error as RemoteConversationNotFoundError).conversationId).toBe(missing);
    }
    // A 400 that names no missing conversation stays a failed request.
    const rest = new RestClient(server.url, KEY);
    const refused = await failure(
      rest.request('POST', `/api/conversations/${id}/condense`, { body: {}, conversationId: id }),
    );
    expect(refused).toMatchObject({ code: 'remote_request_failed', status: 400 });
  });

  it('fails with status 0 when nothing answers, and returns a body that is not JSON as text', async () => {
    const vacant = createServer();
    await new Promise<void>((resolve) => vacant.listen(0, '127.0.0.1', resolve));
    const { port } = vacant.address() as AddressInfo;
    await new Promise((resolve) => vacant.close(resolve));
    const error = await failure(new RestClient(`http://127.0.0.1:${port}`, KEY).request('GET', '/api/conversations'));
    expect(RemoteRequestError.isInstance(error)).toBe(true);
    expect((error as RemoteRequestError).status).toBe(0);
    expect((error as RemoteRequestError).detail).not.toBe('');

    const page = await new RestClient(server.url, KEY).request('GET', '/');
    expect(typeof page).toBe('string');
    expect(page).toMatch(/^<!doctype html>/i);
  });
});
