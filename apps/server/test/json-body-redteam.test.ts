// Bodies no event can hold: nested deeper than an event may be, or numbers JSON cannot carry. Each face refuses
// them when parsing, with its own 400 shape, before anything is applied; none answers a 500 or mangles the value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH } from '../src/api/json-parser.js';
import { createConversation, removeDir, startTestServer, type TestServer } from './helpers.js';
import { rawRequest } from './support/raw-http.js';

let server: TestServer;
let port: number;
let id: string;

beforeAll(async () => {
  server = await startTestServer({});
  port = Number(new URL(server.url).port);
  id = await createConversation(server, {});
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** One request per face, carrying `value` where the face takes free-form JSON. */
function bodies(value: string, tag: string): [string, string][] {
  return [
    ['/api/ag-ui', `{"threadId":"${id}","runId":"r-${tag}","messages":[],"state":${value}}`],
    [
      `/api/conversations/${id}/events`,
      `{"role":"user","content":[{"type":"text","text":"x"}],"extended_content":[${value}]}`,
    ],
    ['/api/a2a', `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"${id}","metadata":${value}}}`],
    ['/api/mcp', `{"jsonrpc":"2.0","id":1,"method":"initialize","params":${value}}`],
    ['/v1/chat/completions', `{"model":"m","messages":[{"role":"user","content":"x"}],"metadata":${value}}`],
  ];
}

/** The face's own 400 for a body that is not acceptable JSON, with `detail` in it. */
function expectMalformed(path: string, response: { status: number; body: string }, detail: RegExp): void {
  const json = JSON.parse(response.body) as Record<string, unknown>;
  if (path === '/api/a2a') {
    expect(response.status).toBe(200);
    expect((json.error as { code: number }).code).toBe(-32700);
    expect((json.error as { message: string }).message).toMatch(detail);
  } else if (path === '/api/mcp') {
    expect(response.status).toBe(400);
    expect((json.error as { code: number }).code).toBe(-32700);
    expect((json.error as { message: string }).message).toMatch(detail);
  } else if (path.startsWith('/v1/')) {
    expect(response.status).toBe(400);
    expect((json.error as { code: string }).code).toBe('malformed_body');
    expect((json.error as { message: string }).message).toMatch(detail);
  } else {
    expect(response.status).toBe(400);
    expect(json.detail).toMatch(detail);
  }
}

describe('request bodies no event can hold', () => {
  it('refuses nesting beyond the limit on every face with its 400, recording nothing', async () => {
    const before = (await server.built.manager.require(id)).log.length;
    for (const depth of [MAX_BODY_DEPTH + 1, 600, 1_000, 5_000]) {
      for (const [path, body] of bodies(nested(depth), `d${depth}`)) {
        const response = await rawRequest(port, { method: 'POST', target: path, body });
        expectMalformed(path, response, new RegExp(`nested more than ${MAX_BODY_DEPTH} levels deep`));
      }
    }
    expect((await server.built.manager.require(id)).log.length).toBe(before);
  });

  it('does not count brackets inside strings, and takes nesting up to the limit', async () => {
    const brackets = JSON.stringify({ text: '{['.repeat(2_000) });
    const atLimit = nested(MAX_BODY_DEPTH - 3).replace('1}', `${brackets}}`);
    const response = await rawRequest(port, {
      method: 'POST',
      target: '/api/ag-ui',
      body: `{"threadId":"${id}","runId":"at-limit","messages":[],"state":${atLimit}}`,
    });
    expect(response.status, response.body.slice(0, 300)).toBe(200);
    expect(response.body).toContain('RUN_STARTED');
  });

  it('refuses numbers out of a double’s range instead of storing them as null or dropping them', async () => {
    for (const number of ['1e400', '-1e999']) {
      for (const [path, body] of bodies(`{"n":${number}}`, `n${number}`)) {
        const response = await rawRequest(port, { method: 'POST', target: path, body });
        expectMalformed(path, response, /the number at 'n' is out of range/);
      }
    }
  });
});
