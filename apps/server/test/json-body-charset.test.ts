// A JSON body is read in the charset its Content-Type names (UTF-8 when it names none). One the server cannot read
// right (a charset it does not know, bytes not valid in the charset) is refused by every face with its own error
// shape, naming what was wrong, and records nothing: read as UTF-8 it would have become other text (Latin-1 `é` →
// U+FFFD) in the conversation's events, or failed as "not JSON" without saying why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, removeDir, startTestServer, type TestServer } from './helpers.js';

let server: TestServer;
let id: string;

beforeAll(async () => {
  server = await startTestServer({});
  id = await createConversation(server, {});
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

/** One request per face, each carrying `text` where the face takes a user's text. */
function bodies(text: string, tag: string): [string, string][] {
  const quoted = JSON.stringify(text);
  return [
    ['/api/ag-ui', `{"threadId":"${id}","runId":"r-${tag}","messages":[],"state":{"note":${quoted}}}`],
    [`/api/conversations/${id}/events`, `{"role":"user","content":[{"type":"text","text":${quoted}}],"run":false}`],
    ['/api/a2a', `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"${id}","metadata":{"n":${quoted}}}}`],
    ['/api/mcp', `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"n":${quoted}}}`],
    ['/v1/chat/completions', `{"model":"m","messages":[{"role":"user","content":${quoted}}]}`],
  ];
}

async function post(path: string, contentType: string, body: Buffer): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  });
  return { status: response.status, text: await response.text() };
}

/** The face's refusal of a body it could not read, with `detail` in its message. */
function expectRefused(path: string, response: { status: number; text: string }, status: number, detail: RegExp) {
  const json = JSON.parse(response.text) as Record<string, unknown>;
  const message = (json.error as { message?: string } | undefined)?.message ?? json.detail;
  if (path === '/api/a2a') {
    // JSON-RPC over HTTP, answered with 200: a content type A2A does not support, or a parse error.
    expect(response.status).toBe(200);
    expect((json.error as { code: number }).code).toBe(status === 415 ? -32005 : -32700);
  } else if (path === '/api/mcp') {
    expect(response.status).toBe(status);
    expect((json.error as { code: number }).code).toBe(-32700);
  } else {
    expect(response.status, `${path}: ${response.text}`).toBe(status);
  }
  expect(message).toMatch(detail);
}

describe('JSON bodies that are not UTF-8', () => {
  it('refuses a body in a charset it does not know, naming it, on every face', async () => {
    const before = (await server.built.manager.require(id)).log.length;
    for (const charset of ['x-klingon', 'utf-7', '"cp-none"']) {
      for (const [path, body] of bodies('café', `c${charset}`)) {
        const response = await post(path, `application/json; charset=${charset}`, Buffer.from(body, 'utf8'));
        const named = charset.replace(/"/g, '');
        // A2A answers it as a content type it does not support (-32005), naming the whole Content-Type.
        const detail =
          path === '/api/a2a' ? `charset=${charset}` : `Unsupported charset "${named}" in the Content-Type`;
        expectRefused(path, response, 415, new RegExp(detail));
      }
    }
    expect((await server.built.manager.require(id)).log.length).toBe(before);
  });

  it('reads a body in the charset it declares', async () => {
    for (const [charset, encode] of [
      ['utf-16', (text: string) => Buffer.from(text, 'utf16le')],
      ['UTF-16LE', (text: string) => Buffer.from(text, 'utf16le')],
      ['"ISO-8859-1"', (text: string) => Buffer.from(text, 'latin1')],
      ['latin1', (text: string) => Buffer.from(text, 'latin1')],
    ] as const) {
      const conversation = await createConversation(server, {});
      const body = `{"role":"user","content":[{"type":"text","text":"café crème"}],"run":false}`;
      const path = `/api/conversations/${conversation}/events`;
      const response = await post(path, `application/json; charset=${charset}`, encode(body));
      expect(response.status, `${charset}: ${response.text}`).toBeLessThan(300);
      const log = (await server.built.manager.require(conversation)).log;
      expect(JSON.stringify(await log.get(log.length - 1))).toContain('café crème');
    }
  });

  it('refuses bytes that are not UTF-8 when no charset is declared, instead of replacing them', async () => {
    const before = (await server.built.manager.require(id)).log.length;
    for (const [path, body] of bodies('café', 'latin1-undeclared')) {
      const response = await post(path, 'application/json', Buffer.from(body, 'latin1'));
      expectRefused(path, response, 400, /not valid utf-8 text/);
    }
    expect((await server.built.manager.require(id)).log.length).toBe(before);
  });

  it('takes UTF-8 however it is declared, with or without a byte order mark', async () => {
    for (const contentType of [
      'application/json',
      'application/json; charset=utf-8',
      'application/json;charset="UTF-8"',
      'application/json; charset=us-ascii',
    ]) {
      const conversation = await createConversation(server, {});
      const text = contentType.endsWith('us-ascii') ? 'cafe' : 'café ☕';
      const body = `{"role":"user","content":[{"type":"text","text":${JSON.stringify(text)}}],"run":false}`;
      const bom = contentType === 'application/json' ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0);
      const path = `/api/conversations/${conversation}/events`;
      const response = await post(path, contentType, Buffer.concat([bom, Buffer.from(body, 'utf8')]));
      expect(response.status, response.text).toBeLessThan(300);
      const log = (await server.built.manager.require(conversation)).log;
      const last = await log.get(log.length - 1);
      expect(JSON.stringify(last)).toContain(JSON.stringify(text).slice(1, -1));
    }
  });
});
