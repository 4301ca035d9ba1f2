// A refusal made before any face's handler runs (the session key, the Host/Origin check, an unknown path under a
// face, a method its endpoint does not take, a path that does not decode) reaches each face's official client as the
// typed error that client raises for its protocol, naming the cause: a JSON-RPC error (id null) on A2A and MCP,
// OpenAI's error body on the gateway, `{detail, code}` with the status on AG-UI. The REST API keeps `{detail}`.
import type { AgentCard } from '@a2a-js/sdk';
import { ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { HttpAgent } from '@ag-ui/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer } from '../helpers.js';
import { rawRequest } from '../support/raw-http.js';
import { send, textPart, userMessage } from './a2a-client-support.js';

const KEY = 'router-refusal-key';
const FOREIGN_ORIGIN = 'http://attacker.example';
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

/** A fetch that adds headers to every request a client makes. */
function fetchWith(headers: Record<string, string>): typeof fetch {
  return (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    return fetch(input, { ...init, headers: merged });
  };
}

async function rejectionOf(promise: PromiseLike<unknown>): Promise<unknown> {
  return Promise.resolve(promise).then(
    () => expect.unreachable('the call was answered'),
    (error: unknown) => error,
  );
}

describe('A2A (@a2a-js/sdk): a refusal is a JSON-RPC error the client raises typed', () => {
  async function clientOf(headers: Record<string, string>, endpoint?: string) {
    const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl: fetchWith(headers) })] });
    const card = await (await new ClientFactory().createFromUrl(server.url)).getAgentCard();
    const moved: AgentCard =
      endpoint === undefined
        ? card
        : { ...card, supportedInterfaces: card.supportedInterfaces.map((entry) => ({ ...entry, url: endpoint })) };
    return factory.createFromAgentCard(moved);
  }
  const message = () => send(userMessage([textPart('hello')]));

  it('without the session key: -32000 naming the key and how to send it (HTTP 401)', async () => {
    const client = await clientOf({});
    const error = await rejectionOf(client.sendMessage(message()));
    expect(error).toMatchObject({
      name: 'JsonRpcTransportError',
      envelopeCode: -32000,
      data: { status: 401, reason: 'unauthorized' },
    });
    expect((error as Error).message).toContain('X-Session-API-Key');
    const streamed = await rejectionOf(client.sendMessageStream(message()).next());
    expect(streamed).toMatchObject({ envelopeCode: -32000, data: { status: 401 } });
  });

  it('from a foreign Origin: -32000 naming the Origin check (HTTP 403)', async () => {
    const client = await clientOf({ 'X-Session-API-Key': KEY, Origin: FOREIGN_ORIGIN });
    const error = await rejectionOf(client.sendMessage(message()));
    expect(error).toMatchObject({ envelopeCode: -32000, data: { status: 403, reason: 'origin_not_allowed' } });
    expect((error as Error).message).toContain('--allowed-origin');
  });

  it('at a path under /api/a2a that is no endpoint: a RequestMalformedError naming the endpoint (HTTP 404)', async () => {
    const client = await clientOf({ 'X-Session-API-Key': KEY }, `${server.url}/api/a2a/v2`);
    const error = await rejectionOf(client.sendMessage(message()));
    expect(error).toMatchObject({ name: 'RequestMalformedError', data: { status: 404, reason: 'not_found' } });
    expect((error as Error).message).toContain('POST /api/a2a');
  });
});

describe('MCP (@modelcontextprotocol/sdk): a refusal is a JSON-RPC error in the StreamableHTTPError', () => {
  async function connectError(headers: Record<string, string>, path = '/api/mcp'): Promise<StreamableHTTPError> {
    const client = new Client({ name: 'refusals', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}${path}`), {
      requestInit: { headers },
    });
    const error = await rejectionOf(client.connect(transport));
    await client.close();
    expect(error).toBeInstanceOf(StreamableHTTPError);
    return error as StreamableHTTPError;
  }

  /** The JSON-RPC body the transport quotes in its message ("Error POSTing to endpoint: {...}"). */
  function bodyOf(error: StreamableHTTPError): { jsonrpc: string; id: unknown; error: Record<string, unknown> } {
    return JSON.parse(error.message.slice(error.message.indexOf('{')));
  }

  it('without the session key: 401 with -32000 naming both ways to send it', async () => {
    const error = await connectError({});
    expect(error.code).toBe(401);
    const body = bodyOf(error);
    expect(body).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, data: { status: 401, reason: 'unauthorized' } },
    });
    expect(body.error.message).toContain('Authorization: Bearer <key> or X-Session-API-Key');
  });

  it('from a foreign Origin: 403 with -32000 naming the Origin check', async () => {
    const error = await connectError({ Authorization: `Bearer ${KEY}`, Origin: FOREIGN_ORIGIN });
    expect(error.code).toBe(403);
    expect(bodyOf(error)).toMatchObject({ id: null, error: { code: -32000, data: { reason: 'origin_not_allowed' } } });
  });

  it('at a path under /api/mcp that is no endpoint: 404 with -32600 naming the endpoint', async () => {
    const error = await connectError({ Authorization: `Bearer ${KEY}` }, '/api/mcp/v2');
    expect(error.code).toBe(404);
    const body = bodyOf(error);
    expect(body).toMatchObject({ id: null, error: { code: -32600, data: { status: 404, reason: 'not_found' } } });
    expect(body.error.message).toContain('/api/mcp');
  });

  it('a method the endpoint does not take is a 405 with Allow and a JSON-RPC error', async () => {
    const response = await rawRequest(port, {
      method: 'PUT',
      target: '/api/mcp',
      headers: { 'X-Session-API-Key': KEY },
    });
    expect(response.status).toBe(405);
    expect(response.headers.allow?.split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'POST']);
    expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });

  it('a path that does not decode is a 400 with a JSON-RPC error', async () => {
    const response = await rawRequest(port, { method: 'POST', target: '/api/mcp/%ff' });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ id: null, error: { code: -32600, data: { reason: 'bad_url' } } });
  });
});

describe('OpenAI (openai): a refusal is the APIError subclass of its status, with code and message', () => {
  const client = (headers: Record<string, string> = {}) =>
    new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1`, maxRetries: 0, defaultHeaders: headers });

  it('from a foreign Origin: a PermissionDeniedError naming the Origin check', async () => {
    const error = await rejectionOf(client({ Origin: FOREIGN_ORIGIN }).models.list());
    expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(error).toMatchObject({ status: 403, code: 'origin_not_allowed', type: 'permission_error' });
    expect((error as Error).message).toContain('--allowed-origin');
  });

  it('a path that does not decode: a BadRequestError', async () => {
    const error = await rejectionOf(client().get('/models/%ff'));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'bad_url', type: 'invalid_request_error' });
  });
});

describe('AG-UI (@ag-ui/client): a refusal is an HTTP error the HttpAgent raises with status and payload', () => {
  const agent = (headers: Record<string, string>) =>
    new HttpAgent({ url: `${server.url}/api/ag-ui`, threadId: 'thread-refused', headers });

  it('without the session key: 401, the payload naming the key', async () => {
    const error = await rejectionOf(agent({}).runAgent());
    expect(error).toMatchObject({ status: 401, payload: { code: 'unauthorized' } });
    expect((error as { payload: { detail: string } }).payload.detail).toContain('X-Session-API-Key');
  });

  it('from a foreign Origin: 403, the payload naming the Origin check', async () => {
    const error = await rejectionOf(agent({ 'X-Session-API-Key': KEY, Origin: FOREIGN_ORIGIN }).runAgent());
    expect(error).toMatchObject({ status: 403, payload: { code: 'origin_not_allowed' } });
  });

  it('GET on the endpoint is a 405 with Allow: POST', async () => {
    const response = await rawRequest(port, { target: '/api/ag-ui', headers: { 'X-Session-API-Key': KEY } });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('POST');
    expect(JSON.parse(response.body)).toMatchObject({ code: 'method_not_allowed' });
  });
});

describe('the REST API', () => {
  it('keeps its {detail} shape for the same refusals', async () => {
    expect(await server.call('GET', '/api/conversations/count')).toEqual({
      status: 401,
      json: { detail: 'Unauthorized' },
    });
    expect(await server.call('GET', '/api/no-such-route', undefined, { 'X-Session-API-Key': KEY })).toEqual({
      status: 404,
      json: { detail: 'Not Found' },
    });
    const bad = await rawRequest(port, { target: '/api/conversations/%ff' });
    expect({ status: bad.status, body: JSON.parse(bad.body) }).toEqual({
      status: 400,
      body: { detail: 'Bad Request: the request path is not valid percent-encoded UTF-8' },
    });
  });
});
