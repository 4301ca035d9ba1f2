// A JSON-RPC request sent with a media type other than JSON is answered as `@a2a-js/sdk`'s own server answers it:
// a JSON-RPC ContentTypeNotSupported error (-32005, with its ErrorInfo) and nothing carried out. It is not a parse
// error: the body may well be valid JSON.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type A2aFixture, startA2aFixture } from './a2a-client-support.js';

let fixture: A2aFixture;

beforeAll(async () => {
  fixture = await startA2aFixture();
});
afterAll(async () => {
  await fixture.stop();
});

describe('A2A requests of another media type', () => {
  it('refuses them with ContentTypeNotSupported, starting nothing', async () => {
    const { server } = fixture;
    const before = (await server.built.manager.list()).length;
    const message = { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hello' }] };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message } });
    // text/plain has a body parser on the server, application/xml none: both are refused alike.
    for (const contentType of ['text/plain', 'application/xml']) {
      const response = await fetch(`${server.url}/api/a2a`, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body,
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32005,
          message: expect.stringContaining(contentType),
          data: [
            {
              '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
              reason: 'CONTENT_TYPE_NOT_SUPPORTED',
              domain: 'a2a-protocol.org',
            },
          ],
        },
      });
    }
    expect((await server.built.manager.list()).length).toBe(before);
  });

  it('refuses a body sent with no media type, or a blank one, with ContentTypeNotSupported saying so', async () => {
    const { server } = fixture;
    const before = (await server.built.manager.list()).length;
    const message = { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hello' }] };
    const body = new TextEncoder().encode(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message } }),
    );
    // A byte body gets no Content-Type from fetch; a blank one is sent as it is.
    for (const headers of [{}, { 'content-type': ' ' }] as Record<string, string>[]) {
      const response = await fetch(`${server.url}/api/a2a`, { method: 'POST', headers, body });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32005, message: expect.stringContaining('no Content-Type') },
      });
    }
    expect((await server.built.manager.list()).length).toBe(before);
  });

  it('still answers a JSON body that does not parse with a parse error', async () => {
    const response = await fetch(`${fixture.server.url}/api/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: '{"jsonrpc": "2.0",',
    });
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: expect.any(String) },
    });
  });
});
