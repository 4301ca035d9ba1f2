// A request body in a charset other than UTF-8, as a client that is not the `openai` SDK may send one to the gateway of
// a real server: a body in the charset its Content-Type names is read in that charset (the agent gets the user's text,
// accented letters included), and one the server cannot read right (an unknown charset, bytes not valid in the one
// named) is an OpenAI error body before any run, never text with U+FFFD where the user's letters were.
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply, removeDir, type TestServer } from '../helpers.js';
import { CONVERSATION_HEADER, GATEWAY_KEY, startGateway } from '../support/openai-gateway.js';

let server: TestServer;

beforeAll(async () => {
  ({ server } = await startGateway());
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

const chat = (text: string) => JSON.stringify({ model: 'x-terminal', messages: [{ role: 'user', content: text }] });

function post(path: string, body: Uint8Array, contentType: string): Promise<Response> {
  return fetch(`${server.url}/v1/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${GATEWAY_KEY}`, 'content-type': contentType },
    body,
  });
}

/** The text of the model's latest request's last user message. */
function lastUserTextSeen(): string {
  const messages = (server.llm.requests.at(-1)?.messages ?? []) as { role: string; content: unknown }[];
  const content = messages.findLast((message) => message.role === 'user')?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
}

describe('a body in the charset its Content-Type names', () => {
  it.each([
    ['ISO-8859-1', Buffer.from(chat('Où est le café ?'), 'latin1')],
    ['utf-16le', Buffer.from(chat('Où est le café ?'), 'utf16le')],
    ['"UTF-8"', Buffer.from(chat('Où est le café ?'), 'utf8')],
  ])('%s is read in that charset', async (charset, body) => {
    server.llm.push(finishReply('Ici.'));
    const response = await post('chat/completions', body, `application/json; charset=${charset}`);
    const completion = (await response.json()) as OpenAI.ChatCompletion;
    expect(response.status, JSON.stringify(completion)).toBe(200);
    expect(completion.choices[0]?.message.content).toBe('Ici.');
    expect(lastUserTextSeen()).toContain('Où est le café ?');
  });

  it('is read by the Responses API too', async () => {
    server.llm.push(finishReply('Ici.'));
    const body = Buffer.from(JSON.stringify({ model: 'x-terminal', input: 'Où est le café ?' }), 'latin1');
    const response = await post('responses', body, 'application/json; charset=latin1');
    expect(response.status).toBe(200);
    expect(lastUserTextSeen()).toContain('Où est le café ?');
  });
});

describe('a body the server cannot read right is refused before any run', () => {
  it.each([
    ['Latin-1 bytes sent as UTF-8', 'application/json; charset=utf-8', 400, 'malformed_body'],
    ['Latin-1 bytes sent with no charset (UTF-8)', 'application/json', 400, 'malformed_body'],
    ['an unknown charset', 'application/json; charset=x-klingon', 415, 'unsupported_charset'],
  ])('%s', async (_name, contentType, status, code) => {
    const before = server.llm.requests.length;
    const response = await post('chat/completions', Buffer.from(chat('Où est le café ?'), 'latin1'), contentType);
    const body = (await response.json()) as { error: { type: string; code: string; message: string } };
    expect(response.status).toBe(status);
    expect(body.error).toMatchObject({ type: 'invalid_request_error', code });
    expect(response.headers.get(CONVERSATION_HEADER)).toBeNull();
    expect(server.llm.requests.length).toBe(before);
  });
});
